import { defineSearchAttributeKey, SearchAttributeType, type TypedSearchAttributes } from '@temporalio/common';

/** PII-free search attributes so operators can filter Case runs in the Temporal UI. */
export const SA = {
  projectId: defineSearchAttributeKey('ProjectId', SearchAttributeType.KEYWORD),
  engineProfile: defineSearchAttributeKey('EngineProfile', SearchAttributeType.KEYWORD),
  policyRevision: defineSearchAttributeKey('PolicyRevision', SearchAttributeType.KEYWORD),
  flowId: defineSearchAttributeKey('FlowId', SearchAttributeType.KEYWORD),
  flowVersion: defineSearchAttributeKey('FlowVersion', SearchAttributeType.INT),
};

export function caseSearchAttributes(s: { projectId: string; engineProfile: string; policyRevision: string; flow?: { id: string; versionRef: number } }) {
  const pairs: { key: (typeof SA)[keyof typeof SA]; value: string | number }[] = [
    { key: SA.projectId, value: s.projectId },
    { key: SA.engineProfile, value: s.engineProfile },
    { key: SA.policyRevision, value: s.policyRevision },
  ];
  if (s.flow) pairs.push({ key: SA.flowId, value: s.flow.id }, { key: SA.flowVersion, value: s.flow.versionRef });
  return pairs as unknown as ConstructorParameters<typeof TypedSearchAttributes>[0];
}
