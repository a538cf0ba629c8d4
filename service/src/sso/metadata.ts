// The SP metadata of a SAML connection, for the IdP's administrator (GET {public URL}/sso/saml/{connection}/metadata).
import type { Services } from '../services';
import * as sso from '../repo/sso';
import { spMetadataXml } from './saml';
import type { SamlSettings } from './settings';

export async function samlMetadataOf(services: Services, connectionId: string): Promise<string | null> {
  const row = await sso.findConnectionById(services.db, connectionId);
  if (!row || row.type !== 'saml') return null;
  return spMetadataXml(services.config.publicUrl, row.id, row.settings as SamlSettings);
}
