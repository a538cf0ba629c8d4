// Production-mode errors, computed by the admin client from the admin project view (protocol-resources §10.7).
import { isLocalhostHostname, parseAbsoluteUrl } from './urls';

export interface ProductionModeError {
  message: string;
  relativeFixUrl: string;
}

export interface ProductionModeProject {
  id: string;
  config: { allow_localhost: boolean; domains: readonly { domain: string }[] };
}

/**
 * At most one error per domain, checked in this order: unparsable, localhost, direct IP (hostname of digits and
 * dots), not https. All errors point to the project's domain settings.
 */
export function getProductionModeErrors(project: ProductionModeProject): ProductionModeError[] {
  const relativeFixUrl = `/projects/${project.id}/domains`;
  const errors: ProductionModeError[] = [];
  const add = (message: string) => errors.push({ message, relativeFixUrl });

  if (project.config.allow_localhost) {
    add("Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings");
  }
  for (const { domain } of project.config.domains) {
    const url = parseAbsoluteUrl(domain);
    if (!url) add(`Trusted domain is not a valid URL: ${domain}`);
    else if (isLocalhostHostname(url.hostname)) {
      add(`Localhost domains are not allowed to be trusted in production mode: ${domain}`);
    } else if (/^\d+(\.\d+)*$/.test(url.hostname)) {
      add(`Direct IPs are not valid for trusted domains in production mode: ${domain}`);
    } else if (url.protocol !== 'https:') add(`Trusted domains should be HTTPS: ${domain}`);
  }
  return errors;
}
