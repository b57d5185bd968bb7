export { signDelivery, deliveryHeaders, type SignInput } from './sign.ts';
export { verifyDelivery, type VerifyInput, type VerifyResult, type VerifyFailure, type HeadersLike } from './verify.ts';
export { generateSigningSecret, MIN_SECRET_BYTES, parseSigningSecret, readSigningSecret, SECRET_PREFIX, type SecretRead } from './secrets.ts';
