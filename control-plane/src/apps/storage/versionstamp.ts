/**
 * @module apps/storage/versionstamp
 * Versionstamps on the wire: the commit sequence's number as 20 hexadecimal digits, so that
 * versionstamps compare as strings in the order their commits were made (Deno KV's form).
 */
export const formatVersionstamp = (n: number): string => n.toString(16).padStart(20, '0');

/** The number of a well-formed versionstamp (the schema checked its form). */
export const parseVersionstamp = (s: string): number => Number.parseInt(s, 16);
