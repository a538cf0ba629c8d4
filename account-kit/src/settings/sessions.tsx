// Active Sessions (client-library §7.4): fetched once on mount (not cached); revoke one, or all others after
// a confirmation.
import { useCallback, useEffect, useState } from 'react';
import { Badge, Button, Group, Table, Text, VisuallyHidden, useMatches } from '@mantine/core';
import type { ActiveSession, CurrentUser } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { relativeTime, relativeTimeKey } from '../lib/relative-time';
import { sessionDevice } from '../lib/session-device';
import type { Translate } from '../messages';
import { SectionSkeleton } from '../widgets/section-skeletons';
import { SettingsSection } from '../widgets/settings-section';
import { ActionMenuCell, StackedCell, TextCell } from '../widgets/table-cells';
import { SectionError } from './section-boundary';
import { notifyFailure, useSettingsAction } from './settings-actions';

type Load = { status: 'loading' } | { status: 'ok'; sessions: ActiveSession[] } | { status: 'error'; error: unknown };

export function SessionsSection({ user }: { user: CurrentUser }) {
  const t = useTranslate();
  const run = useSettingsAction();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // On a phone the address, place and last use fold under the session instead of scrolling sideways.
  const tableMinWidth = useMatches({ base: 0, sm: 620 });

  const fetchSessions = useCallback(() => {
    setLoad({ status: 'loading' });
    user.getActiveSessions().then((sessions) => setLoad({ status: 'ok', sessions }), (error) => setLoad({ status: 'error', error }));
  }, [user.id]);
  useEffect(fetchSessions, [fetchSessions]);

  const sessions = load.status === 'ok' ? load.sessions : [];
  const others = sessions.filter((s) => !s.isCurrentSession);

  const revoke = (id: string) =>
    run(() => user.revokeSession(id), () => { notifyFailure(t, t('settings.sessions.revokeFailed')); return true; }).then((ok) => {
      if (ok) setLoad((l) => (l.status === 'ok' ? { status: 'ok', sessions: l.sessions.filter((s) => s.id !== id) } : l));
    });

  const revokeAll = async () => {
    setBusy(true);
    const ok = await run(() => Promise.all(others.map((s) => user.revokeSession(s.id))), () => { notifyFailure(t, t('settings.sessions.revokeAllFailed')); return true; });
    if (ok) setLoad((l) => (l.status === 'ok' ? { status: 'ok', sessions: l.sessions.filter((s) => s.isCurrentSession) } : l));
    setBusy(false);
    setConfirming(false);
  };

  const actions = load.status === 'ok' && others.length > 0 ? (
    confirming ? (
      <Group gap="xs" wrap="nowrap">
        <Button color="red" size="xs" loading={busy} onClick={() => void revokeAll()}>{t('settings.sessions.confirm')}</Button>
        <Button variant="default" size="xs" disabled={busy} onClick={() => setConfirming(false)}>{t('settings.cancel')}</Button>
      </Group>
    ) : (
      <Button variant="outline" size="xs" onClick={() => setConfirming(true)}>{t('settings.sessions.revokeAll')}</Button>
    )
  ) : null;

  return (
    <SettingsSection id="sessions" title={t('settings.sessions.title')} description={t('settings.sessions.footnote')} actions={actions}>
      {load.status === 'loading' && <SectionSkeleton kind="sessions" />}
      {load.status === 'error' && <SectionError error={load.error} onRetry={fetchSessions} title={t('settings.sessions.loadFailed')} />}
      {load.status === 'ok' && (
        <Table.ScrollContainer minWidth={tableMinWidth}>
          <Table verticalSpacing="xs" aria-labelledby="sessions-title">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={200}>{t('settings.sessions.session')}</Table.Th>
                <Table.Th w={150} visibleFrom="sm">{t('settings.sessions.ip')}</Table.Th>
                <Table.Th w={150} visibleFrom="sm">{t('settings.sessions.location')}</Table.Th>
                <Table.Th w={150} visibleFrom="sm">{t('settings.sessions.lastUsed')}</Table.Th>
                <Table.Th w={80}><VisuallyHidden>{t('settings.actions')}</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.length === 0 && (
                <Table.Tr><Table.Td colSpan={5}><Text size="sm" c="dimmed" ta="center">{t('settings.sessions.empty')}</Text></Table.Td></Table.Tr>
              )}
              {sessions.map((s) => (
                <Table.Tr key={s.id} data-testid="session-row">
                  <StackedCell
                    main={<Group gap={6}>
                      <Text span inherit fw={500}>{device(s, t)}</Text>
                      <Badge size="xs" variant={s.isCurrentSession ? 'filled' : 'default'} color={s.isCurrentSession ? 'blue.8' : undefined}>{t(s.isCurrentSession ? 'settings.sessions.current' : 'settings.sessions.other')}</Badge>
                      {s.isImpersonation && <Badge size="xs" color="orange">{t('settings.sessions.impersonation')}</Badge>}
                    </Group>}
                    sub={<>
                      {t('settings.sessions.signedIn', { date: s.createdAt.toLocaleDateString() })}
                      <Text span inherit display="block" hiddenFrom="sm">{ip(s)} · {place(s, t)}</Text>
                      <Text span inherit display="block" hiddenFrom="sm">{t('settings.sessions.lastUsed')}: {lastUsed(s.lastUsedAt, t).text}</Text>
                    </>}
                  />
                  <TextCell visibleFrom="sm">{ip(s)}</TextCell>
                  <TextCell visibleFrom="sm">{place(s, t)}</TextCell>
                  <LastUsedCell date={s.lastUsedAt} t={t} />
                  <ActionMenuCell
                    label={t('settings.sessions.menu', { session: t('settings.sessions.name', { device: device(s, t), date: s.createdAt.toLocaleString() }) })}
                    items={[{
                      label: t('settings.sessions.revoke'),
                      danger: true,
                      disabledReason: s.isCurrentSession ? t('settings.sessions.cannotRevokeCurrent') : null,
                      onClick: () => void revoke(s.id),
                    }]}
                  />
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </SettingsSection>
  );
}

const ip = (s: ActiveSession) => s.geoInfo?.ip || '-';
/** The place the service recorded (a trusted proxy's geo headers): city, region and country as far as known. */
const place = (s: ActiveSession, t: Translate) =>
  [s.geoInfo?.cityName, s.geoInfo?.regionCode, s.geoInfo?.countryCode].filter(Boolean).join(', ') || t('settings.sessions.unknownLocation');
/** "Chrome 156 on Linux": the browser and system of the sign-in's user agent. */
function device(s: ActiveSession, t: Translate): string {
  const d = sessionDevice(s.userAgent);
  return t('settings.sessions.device', { browser: d.browser ?? t('settings.sessions.unknownBrowser'), os: d.os ?? t('settings.sessions.unknownOs') });
}

function lastUsed(date: Date | undefined, t: Translate): { text: string; date?: Date } {
  if (!date) return { text: t('settings.never') };
  const r = relativeTime(date);
  return { text: r.kind === 'just-now' ? t('settings.time.justNow') : r.kind === 'date' ? r.text : t(relativeTimeKey(r), { count: r.count }), date };
}

function LastUsedCell({ date, t }: { date: Date | undefined; t: Translate }) {
  const used = lastUsed(date, t);
  if (!used.date) return <StackedCell main={used.text} visibleFrom="sm" />;
  return <StackedCell main={<span title={used.date.toLocaleString()}>{used.text}</span>} sub={used.date.toLocaleDateString()} visibleFrom="sm" />;
}
