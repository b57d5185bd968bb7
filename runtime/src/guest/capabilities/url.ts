/**
 * @module guest/capabilities/url
 * URL (parsed by the host's WHATWG parser through the `url` host capability) and URLSearchParams.
 */
import { URL, URLSearchParams } from '../web/url.ts';
import type { GuestCapability } from './types.ts';

export const urlCapability: GuestCapability = {
  name: 'url',
  install(define) {
    define('URL', URL);
    define('URLSearchParams', URLSearchParams);
  },
};
