// A name shown in a narrow place (a table cell, a header, a menu): one line, cut with "…", the whole name in a
// tooltip on hover. The text itself stays whole in the page, so a screen reader reads all of it (issue 25).
import { Text, Tooltip, type TextProps } from '@mantine/core';

export function TruncatedText({ children, maw, ...props }: Omit<TextProps, 'children' | 'truncate'> & { children: string }) {
  return (
    <Tooltip label={children} openDelay={300} multiline maw={320} style={{ overflowWrap: 'anywhere' }} withinPortal>
      <Text truncate="end" maw={maw ?? '100%'} {...props}>{children}</Text>
    </Tooltip>
  );
}
