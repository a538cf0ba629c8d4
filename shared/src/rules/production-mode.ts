// Production-mode errors, computed by the admin client from the admin project view (protocol-resources §10.7).
import { isLocalhostHostname, parseAbsoluteUrl } from './urls';

/** Which rule a production-mode error is about (Gatehouse's addition: a UI words it in its own language). */
export type ProductionModeProblem = 'localhost-allowed' | 'invalid-domain' | 'localhost-domain' | 'ip-domain' | 'not-https';

export interface ProductionModeError {
  message: string;
  relativeFixUrl: string;
  problem: ProductionModeProblem;
  /** The trusted domain concerned (all but `localhost-allowed`). */
  domain?: string;
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
  const add = (problem: ProductionModeProblem, message: string, domain?: string) =>
    errors.push(domain === undefined ? { message, relativeFixUrl, problem } : { message, relativeFixUrl, problem, domain });

  if (project.config.allow_localhost) {
    add('localhost-allowed', "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings");
  }
  for (const { domain } of project.config.domains) {
    const url = parseAbsoluteUrl(domain);
    if (!url) add('invalid-domain', `Trusted domain is not a valid URL: ${domain}`, domain);
    else if (isLocalhostHostname(url.hostname)) {
      add('localhost-domain', `Localhost domains are not allowed to be trusted in production mode: ${domain}`, domain);
    } else if (/^\d+(\.\d+)*$/.test(url.hostname)) {
      add('ip-domain', `Direct IPs are not valid for trusted domains in production mode: ${domain}`, domain);
    } else if (url.protocol !== 'https:') add('not-https', `Trusted domains should be HTTPS: ${domain}`, domain);
  }
  return errors;
}
