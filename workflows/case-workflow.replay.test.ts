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

describe('the recorded shape with the database steps as local activities (issue 18 item 2, wt26e)', () => {
  type Payloads = { payloads?: { data?: string }[] };
  type Event = { eventType: string; markerRecordedEventAttributes?: { markerName: string; details?: Record<string, Payloads> }; activityTaskScheduledEventAttributes?: { activityType: { name: string } } };
  const json = (p: Payloads | undefined) => (p?.payloads ?? []).map((x) => JSON.parse(Buffer.from(x.data ?? '', 'base64').toString('utf8')) as Record<string, unknown>);
  const shape = (name: string) => {
    const events = load(name).events as Event[];
    return {
      patches: events.flatMap((e) => json(e.markerRecordedEventAttributes?.details?.['patch-data']).map((p) => p.id)),
      local: events.flatMap((e) => (e.markerRecordedEventAttributes?.markerName === 'core_local_activity' ? json(e.markerRecordedEventAttributes.details?.data).map((d) => d.activity_type) : [])),
      tasks: events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType.name] : [])),
      workflowTasks: events.filter((e) => e.eventType === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED').length,
    };
  };

  it('runs the database steps and record match in the workflow task, and only the engines and the webhook as activity tasks', () => {
    const s = shape('case-submitted-completed-2026-11-25c');
    expect(s.patches).toEqual(expect.arrayContaining(['local-db-steps', 'confirm-case-row', 'checks-as-inputs-arrive']));
    expect(s.local).toEqual(['confirmCaseRow', 'startProcessing', 'runRecordMatch', 'finalizeCase']);
    expect([...s.tasks].sort()).toEqual(['deliverWebhook', 'runAuthenticityCheck', 'runDocumentChecks', 'runFaceMatch', 'runLivenessCheck']);
    // 9 activity tasks and 11 workflow tasks per Case before (case-submitted-completed-2026-11-25b).
    const before = shape('case-submitted-completed-2026-11-25b');
    expect(before.tasks).toHaveLength(9);
    expect(s.workflowTasks).toBeLessThan(before.workflowTasks);
  });

  it('fails a Case with failCase in the workflow task and still notifies through an activity task', () => {
    const s = shape('case-submitted-failed-2026-11-25c');
    expect(s.local).toEqual(['confirmCaseRow', 'startProcessing', 'failCase']);
    expect(s.tasks.at(-1)).toBe('deliverWebhook');
  });
});
