// A project's security settings (admin; Gatehouse's own, issue 30; projects/security-settings.ts).
import { ProjectSecuritySettings, ProjectSecuritySettingsUpdate } from '@gatehouse/shared/schemas/security-settings';
import { route } from '../http/route';
import { updateSecuritySettings } from '../projects/security-settings';
import { securitySettingsView } from '../presenters/security-settings';

export const securitySettingsRoutes = [
  route({
    method: 'GET', path: '/internal/security-settings', summary: "The project's security settings (password length, session lifetimes, new-device notice)", tags: ['Projects'],
    access: ['admin'], response: ProjectSecuritySettings,
    async handler({ auth }) {
      return securitySettingsView(auth.project.security);
    },
  }),
  route({
    method: 'PATCH', path: '/internal/security-settings', summary: "Change the project's security settings (only the fields named change)", tags: ['Projects'],
    access: ['admin'], body: ProjectSecuritySettingsUpdate, response: ProjectSecuritySettings,
    async handler({ services, auth, body }) {
      return securitySettingsView(await updateSecuritySettings(services, { projectId: auth.project.id, changes: body }));
    },
  }),
];
