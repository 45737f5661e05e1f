import { Entry } from '@napi-rs/keyring';

/** Where `workcell login` keeps a profile's personal credential: the operating system's credential store. */
export interface CredentialStore {
  get(profile: string): StoredLogin | null;
  set(profile: string, login: StoredLogin): void;
  /** True when something was removed. */
  delete(profile: string): boolean;
}

export interface StoredLogin {
  readonly credential: string;
  readonly baseUrl: string;
}

const SERVICE = 'workcell-cli';

/**
 * The OS store through the Secret Service (Linux), Keychain (macOS) or Credential Manager (Windows). Nothing is
 * ever written to a file: without a usable store, login fails and says so.
 */
export function osCredentialStore(): CredentialStore {
  const entry = (profile: string) => new Entry(SERVICE, profile);
  return {
    get(profile) {
      const value = entry(profile).getPassword();
      return value ? (JSON.parse(value) as StoredLogin) : null;
    },
    set(profile, login) {
      entry(profile).setPassword(JSON.stringify(login));
    },
    delete(profile) {
      return entry(profile).deletePassword();
    },
  };
}

/** A store in memory, for tests of everything but the OS store itself. */
export function memoryCredentialStore(): CredentialStore & { readonly entries: Map<string, StoredLogin> } {
  const entries = new Map<string, StoredLogin>();
  return {
    entries,
    get: (profile) => entries.get(profile) ?? null,
    set: (profile, login) => void entries.set(profile, login),
    delete: (profile) => entries.delete(profile),
  };
}
