/**
 * @module guest/capabilities/types
 * The guest half of a host capability: installs globals that talk to the host half of the same
 * name (runtime/src/capabilities/<name>.ts) through the bridge.
 */
export interface GuestCapability {
  /** Same name as the host capability it calls. */
  readonly name: string;
  /** Defines the globals this capability offers. */
  install(define: (name: string, value: unknown) => void): void;
}
