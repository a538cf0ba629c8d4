// The user list's CSV export: the service streams it (GET /internal/users/export.csv); the stream goes straight
// into a file the browser saves, never into the page's state or the DOM.
import { useState } from 'react';
import type { UserFilterOptions } from '@gatehouse/shared/client';
import { useProjectContext } from './use-project-context';

export function useUserExport(): { exporting: boolean; exportCsv(o: UserFilterOptions & { query?: string; desc?: boolean }, fileName: string): Promise<void> } {
  const { app } = useProjectContext();
  const [exporting, setExporting] = useState(false);
  async function exportCsv(o: UserFilterOptions & { query?: string; desc?: boolean }, fileName: string) {
    setExporting(true);
    try {
      const stream = await app.exportUsersCsv(o);
      // A Blob is held by the browser (on disk when large), not by the page's JavaScript heap.
      const blob = await new Response(stream, { headers: { 'content-type': 'text/csv; charset=utf-8' } }).blob();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } finally {
      setExporting(false);
    }
  }
  return { exporting, exportCsv };
}
