/**
 * The classifier's class vocabulary: the runtime model outputs one probability per label, in this
 * order (pinned in the model's feature spec). Offline tooling (tools/authenticity: the attack
 * generators and training) produces samples with these labels; the runtime owns the list so it
 * never imports the tooling.
 */
export const SAMPLE_LABELS = ['clean', 'splice_portrait', 'edit_text', 'editor_resave', 'screen_recapture', 'print_recapture'] as const;
export type SampleLabel = (typeof SAMPLE_LABELS)[number];
export const ATTACK_LABELS = SAMPLE_LABELS.filter((l) => l !== 'clean');
