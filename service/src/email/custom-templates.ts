// A project's email templates as admins manage them (protocol-resources §12.1): each of the types, customised or
// the built-in default; customising one needs a custom email config (the shared one sends the defaults only).
import { Value } from '@sinclair/typebox/value';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { EMAIL_TEMPLATE_TYPES, EmailTemplateContent, type EmailTemplateType } from '@gatehouse/shared/schemas/email-templates';
import type { Services } from '../services';
import * as templates from '../repo/email-templates';
import * as projects from '../repo/projects';
import { InputProblems } from '../input-problems';
import { DEFAULT_EMAIL_TEMPLATES, describeTemplateSyntaxProblem, templateSyntaxProblem } from '@gatehouse/shared/email-templates';

/** A template as the project sends it: its customisation, or the default. */
export interface ProjectTemplate { type: EmailTemplateType; subject: string; content: EmailTemplateContent; isDefault: boolean }

function templateOf(type: EmailTemplateType, custom: templates.EmailTemplateSource | null | undefined): ProjectTemplate {
  const t = custom ?? DEFAULT_EMAIL_TEMPLATES[type];
  return { type, subject: t.subject, content: { html: t.content.html, text: t.content.text }, isDefault: !custom };
}

export async function listEmailTemplates(services: Services, input: { projectId: string }): Promise<ProjectTemplate[]> {
  const custom = await templates.listCustom(services.db, input.projectId);
  return EMAIL_TEMPLATE_TYPES.map((type) => templateOf(type, custom.get(type)));
}

export async function getEmailTemplate(services: Services, input: { projectId: string; type: EmailTemplateType }): Promise<ProjectTemplate> {
  return templateOf(input.type, await templates.loadProjectTemplate(services.db, input.projectId, input.type));
}

/** Customises the subject, the content or both (a part not given keeps its value, or the default's). */
export async function customiseEmailTemplate(services: Services, input: { projectId: string; type: EmailTemplateType; subject?: string; content?: unknown }): Promise<ProjectTemplate> {
  const { projectId, type } = input;
  if (input.content === null) throw new InputProblems(['body.content cannot be null']);
  const saved = await services.db.transaction(async (tx) => {
    // The project row lock orders this against a concurrent switch to the shared email config.
    const project = await projects.findForUpdate(tx, projectId);
    if (!project) throw new KnownErrors.ProjectNotFound(projectId);
    if (project.config.email_config.type === 'shared') {
      throw new StatusError(400, 'Cannot update email templates in shared email config. Set up a custom email config to update email templates.');
    }
    if (input.content !== undefined && !Value.Check(EmailTemplateContent, input.content)) throw new StatusError(400, 'Invalid email template content');
    const content = input.content as EmailTemplateContent | undefined;
    // A part that does not parse would reach users as written: refused, naming the part, the line and the tag.
    const problems = ([['body.subject', input.subject], ['body.content.html', content?.html], ['body.content.text', content?.text]] as const)
      .flatMap(([path, source]) => {
        const problem = source === undefined ? null : templateSyntaxProblem(source);
        return problem ? [`${path}, ${describeTemplateSyntaxProblem(problem)}`] : [];
      });
    if (problems.length) throw new InputProblems(problems);
    return templates.upsert(tx, projectId, type, { subject: input.subject, content }, DEFAULT_EMAIL_TEMPLATES[type]);
  });
  return templateOf(type, saved);
}

/** Back to the default (404 when the type was not customised). */
export async function resetEmailTemplate(services: Services, input: { projectId: string; type: EmailTemplateType }): Promise<void> {
  if (!(await templates.remove(services.db, input.projectId, input.type))) throw new StatusError(404, 'Email template not found');
}
