// A box that fills the viewport below where it starts (under the host app's header, say), so a short page does not
// scroll by the header's height. The settings frame and the handler's auth pages use it.
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { Box, type BoxProps } from '@mantine/core';

export function FullPageBox({ fullPage = true, children, ...props }: BoxProps & { fullPage?: boolean; component?: 'main' | 'div'; style?: CSSProperties; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    if (fullPage && ref.current) setOffset(ref.current.getBoundingClientRect().top + window.scrollY);
  }, [fullPage]);
  return <Box ref={ref} mih={fullPage ? `calc(100dvh - ${offset}px)` : undefined} {...props}>{children}</Box>;
}
