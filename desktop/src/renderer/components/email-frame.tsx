// An email's HTML as its recipient sees it, in a frame that runs no script and reaches nothing of the console
// (sandbox with no permission): a template's preview and a sent email's recorded copy.
export function EmailFrame({ html, title, height = 380, testId }: { html: string; title: string; height?: number; testId?: string }) {
  return (
    <iframe
      title={title}
      sandbox=""
      srcDoc={html}
      data-testid={testId}
      style={{ width: '100%', height, border: '1px solid var(--mantine-color-default-border)', borderRadius: 8, background: 'white' }}
    />
  );
}
