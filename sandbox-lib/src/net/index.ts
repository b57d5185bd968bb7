export { checkAddress, checkHost, isIpLiteral, parseIPv4, parseIPv6, type AddressOptions, type AddressVerdict } from './address.ts';
export { declaredOver, readCapped, readCappedEvents, type EventBody } from './capped-body.ts';
