export { signDelivery, deliveryHeaders, type SignInput } from './sign.ts';
export { verifyDelivery, type VerifyInput, type VerifyResult, type VerifyFailure, type HeadersLike } from './verify.ts';
export { generateSigningSecret, parseSigningSecret, SECRET_PREFIX } from './secrets.ts';
