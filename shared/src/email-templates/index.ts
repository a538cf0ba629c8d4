// Email templates (`@gatehouse/shared/email-templates`): the renderer and the built-in templates. Pure, so the service
// sends and the console previews with the same code.
export {
  escapeHtml,
  renderTemplate,
  type EmailTemplateContent,
  type EmailTemplateSource,
  type EmailTemplateType,
  type EmailTemplateVariablesByType,
  type MailType,
  type MailVariablesByType,
  type ServiceMailVariablesByType,
  type RenderedEmail,
  type TemplateValue,
  type TemplateVariables,
} from './render.ts';
export {
  DEFAULT_EMAIL_TEMPLATES, MAGIC_LINK_TEMPLATE_V1, PROJECT_OWNER_INVITATION_TEMPLATE, defaultMailTemplate, getDefaultEmailTemplate, magicLinkTemplateVersion,
} from './defaults.ts';
export { describeTemplateSyntaxProblem, templateSyntaxProblem, type TemplateSyntaxProblem } from './syntax.ts';
