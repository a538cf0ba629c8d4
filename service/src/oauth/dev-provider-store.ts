// In-memory storage for the development OpenID provider (oidc-provider's adapter interface). Ours rather than
// oidc-provider's built-in one so that clients can be registered after start (the test fixture learns the
// service's callback URL late) and so the provider does not warn about its quick-start adapter.
import type { Adapter, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

/** Writes between sweeps of expired entries, and the most entries kept (development use stays far below it). */
const SWEEP_EVERY = 256;
const MAX_ENTRIES = 20_000;

export class DevProviderStore {
  private writes = 0;
  private readonly entries = new Map<string, Entry>();
  private readonly grants = new Map<string, Set<string>>();
  private readonly sessionUids = new Map<string, string>();
  private readonly userCodes = new Map<string, string>();
  readonly clients = new Map<string, AdapterPayload>();

  /** The `adapter` option of oidc-provider: one adapter per model name, all sharing this store. */
  readonly adapterFactory = (model: string): Adapter => new DevAdapter(this, model);

  get(key: string): AdapterPayload | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.payload;
  }

  set(model: string, id: string, payload: AdapterPayload, expiresIn: number | undefined): void {
    if (++this.writes % SWEEP_EVERY === 0 || this.entries.size >= MAX_ENTRIES) this.sweep();
    const key = `${model}:${id}`;
    const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : Infinity;
    this.entries.set(key, { payload, expiresAt });
    if (payload.grantId) {
      const members = this.grants.get(payload.grantId) ?? new Set<string>();
      members.add(key);
      this.grants.set(payload.grantId, members);
    }
    if (model === 'Session' && payload.uid) this.sessionUids.set(payload.uid, id);
    if (payload.userCode) this.userCodes.set(payload.userCode, id);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /**
   * Drops what has expired (and the indexes' references to it), then, past MAX_ENTRIES, the oldest: every request to
   * the provider's /auth writes an interaction, read back only if a browser goes on, so expired ones are not all met
   * by a `get` (issue 30 §2: nothing requests write may grow without bound).
   */
  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    for (const key of this.entries.keys()) {
      if (this.entries.size < MAX_ENTRIES * 0.9) break;
      this.entries.delete(key);
    }
    for (const [grantId, members] of this.grants) {
      for (const key of members) if (!this.entries.has(key)) members.delete(key);
      if (members.size === 0) this.grants.delete(grantId);
    }
    for (const [uid, id] of this.sessionUids) if (!this.entries.has(`Session:${id}`)) this.sessionUids.delete(uid);
    for (const [code, id] of this.userCodes) if (!this.entries.has(`DeviceCode:${id}`)) this.userCodes.delete(code);
  }

  revokeGrant(grantId: string): void {
    for (const key of this.grants.get(grantId) ?? []) this.entries.delete(key);
    this.grants.delete(grantId);
  }

  sessionIdByUid(uid: string): string | undefined {
    return this.sessionUids.get(uid);
  }

  idByUserCode(userCode: string): string | undefined {
    return this.userCodes.get(userCode);
  }
}

class DevAdapter implements Adapter {
  constructor(
    private readonly store: DevProviderStore,
    private readonly model: string,
  ) {}

  private key(id: string): string {
    return `${this.model}:${id}`;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    if (this.model === 'Client') this.store.clients.set(id, payload);
    else this.store.set(this.model, id, payload, expiresIn);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (this.model === 'Client') return this.store.clients.get(id);
    return this.store.get(this.key(id));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const id = this.store.idByUserCode(userCode);
    return id === undefined ? undefined : this.find(id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const id = this.store.sessionIdByUid(uid);
    return id === undefined ? undefined : this.find(id);
  }

  async consume(id: string): Promise<void> {
    const payload = this.store.get(this.key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    if (this.model === 'Client') this.store.clients.delete(id);
    else this.store.delete(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    this.store.revokeGrant(grantId);
  }
}
