import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DeterminismViolationError } from '@temporalio/workflow';
import { temporal } from '@temporalio/proto';
import { Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';

const historyFile = (name: string) => fileURLToPath(new URL(`./histories/${name}.json`, import.meta.url));
const load = (name: string) => JSON.parse(readFileSync(historyFile(name), 'utf8'));
const silent = { log: () => {}, trace: () => {}, debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

let bundle: WorkflowBundleWithSourceMap;
beforeAll(async () => {
  bundle = await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./index.ts', import.meta.url)), logger: silent });
}, 120_000);

// The histories are proto3 JSON (what `fetchHistory` returns, serialised). @temporalio/common's
// historyFromJSON trips over a second nested copy of protobufjs in this install tree, so the
// History is built with @temporalio/proto's own type, which accepts enum names and base64 bytes.
const replay = (history: unknown) => Worker.runReplayHistory({ workflowBundle: bundle }, temporal.api.history.v1.History.fromObject(history as object));

describe('Case workflow replay (recorded histories against the current code)', () => {
  const recorded = readdirSync(fileURLToPath(new URL('./histories/', import.meta.url))).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
  it('has recorded histories of every Case path (completed, expired, failed)', () => {
    expect(recorded).toEqual(expect.arrayContaining(['case-submitted-completed', 'case-expired-unsubmitted', 'case-submitted-failed']));
  });

  it.each(recorded)('replays %s', async (name) => {
    await expect(replay(load(name))).resolves.toBeUndefined();
  });

  it('fails on a tampered history whose recorded commands differ from what the code does', async () => {
    const history = load('case-submitted-completed');
    const scheduled = history.events.find((e: { eventType: string }) => e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED');
    expect(scheduled.activityTaskScheduledEventAttributes.activityType.name).toBe('startProcessing');
    scheduled.activityTaskScheduledEventAttributes.activityType.name = 'chargeCustomer';
    await expect(replay(history)).rejects.toBeInstanceOf(DeterminismViolationError);
  });
});

describe('the recorded failed path', () => {
  it('is a Case whose checks failed non-retryably, failed once and notified with verification.failed', () => {
    type Scheduled = { activityType: { name: string }; input?: { payloads?: { data?: string }[] } };
    const events: { eventType: string; activityTaskScheduledEventAttributes?: Scheduled }[] = load('case-submitted-failed').events;
    const scheduled = events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes] : []));
    const names = scheduled.map((a) => a.activityType.name);
    expect(names).toContain('failCase');
    expect(names).not.toContain('finalizeCase');
    const webhook = scheduled.at(-1)!;
    expect(webhook.activityType.name).toBe('deliverWebhook');
    const args = (webhook.input?.payloads ?? []).map((p) => JSON.parse(Buffer.from(p.data ?? '', 'base64').toString('utf8')));
    expect(args[1]).toBe('verification.failed');
    expect(events.at(-1)!.eventType).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
  });
});

describe('the recorded chaos paths (issue 18)', () => {
  type Event = { eventType: string; activityTaskScheduledEventAttributes?: { activityType: { name: string } }; timerStartedEventAttributes?: { startToFireTimeout?: { seconds?: string } } };
  const steps = (name: string) => (load(name).events as Event[]).flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType.name] : e.eventType === 'EVENT_TYPE_TIMER_STARTED' ? [`timer ${e.timerStartedEventAttributes?.startToFireTimeout?.seconds}s`] : []));

  it('a refused first delivery is delivered again after 30 s, once the Case is decided', () => {
    const s = steps('case-completed-redelivered-2026-11-25');
    expect(s[0]).toBe('confirmCaseRow');
    expect(s.slice(-4)).toEqual(['finalizeCase', 'deliverWebhook', 'timer 30s', 'deliverWebhook']);
  });

  it('a workflow whose Case row never committed confirms that and ends, with nothing else done', () => {
    expect(steps('case-not-created-2026-11-25')).toEqual(['confirmCaseRow']);
    const events = load('case-not-created-2026-11-25').events as { eventType: string }[];
    expect(events.at(-1)!.eventType).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
  });
});

describe('the recorded shape with checks starting as their inputs arrive (issue 18, wt19d)', () => {
  type Event = { eventId: string; eventType: string; markerRecordedEventAttributes?: { details?: { 'patch-data'?: { payloads?: { data?: string }[] } } }; activityTaskScheduledEventAttributes?: { activityType: { name: string } }; activityTaskCompletedEventAttributes?: { scheduledEventId: string } };

  it('face match and record match are scheduled together, without waiting for each other', () => {
    const events = load('case-submitted-completed-2026-11-25b').events as Event[];
    const patches = events.flatMap((e) => (e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads ?? []).map((p) => (JSON.parse(Buffer.from(p.data ?? '', 'base64').toString('utf8')) as { id: string }).id));
    expect(patches).toContain('checks-as-inputs-arrive');
    const at = (name: string) => events.findIndex((e) => e.activityTaskScheduledEventAttributes?.activityType.name === name);
    const doneAt = (name: string) => events.findIndex((e) => e.activityTaskCompletedEventAttributes?.scheduledEventId === events[at(name)]!.eventId);
    // Both follow the document check; neither waits for the other to complete.
    expect(at('runFaceMatch')).toBeGreaterThan(doneAt('runDocumentChecks'));
    expect(at('runRecordMatch')).toBeGreaterThan(doneAt('runDocumentChecks'));
    expect(at('runFaceMatch')).toBeLessThan(doneAt('runRecordMatch'));
    expect(at('runRecordMatch')).toBeLessThan(doneAt('runFaceMatch'));
  });
});
