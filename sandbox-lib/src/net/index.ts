export { checkAddress, parseIPv4, parseIPv6, type AddressVerdict } from './address.ts';
