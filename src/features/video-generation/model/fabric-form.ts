// The fabric information form of spec §3 (its fields and limits in shared/fabric/fabric-fields.ts),
// as the workflow holds it, turned into the `fabric_info` the analyse call takes.

import {
  CHOICE_FIELD_NAMES,
  LONG_MAX,
  LONG_TEXT_FIELDS,
  OTHER,
  SHORT_MAX,
  SHORT_TEXT_FIELDS,
  type ChoiceField,
  type LongTextField,
  type ShortTextField,
} from '../../../../shared/fabric/fabric-fields';

export interface ChoiceValue {
  /** A preset key, OTHER, or '' when nothing is chosen. */
  choice: string;
  custom: string;
}

export interface FabricForm {
  text: Record<ShortTextField | LongTextField, string>;
  choices: Record<ChoiceField, ChoiceValue>;
}

export function emptyFabricForm(): FabricForm {
  const text = Object.fromEntries([...SHORT_TEXT_FIELDS, ...LONG_TEXT_FIELDS].map((k) => [k, ''])) as FabricForm['text'];
  const choices = Object.fromEntries(CHOICE_FIELD_NAMES.map((k) => [k, { choice: '', custom: '' }])) as FabricForm['choices'];
  return { text, choices };
}

/** Fills in fields a stored draft of an older shape lacks. */
export function normalizeFabricForm(stored: Partial<FabricForm> | undefined): FabricForm {
  const base = emptyFabricForm();
  if (!stored) return base;
  return {
    text: { ...base.text, ...(stored.text ?? {}) },
    choices: { ...base.choices, ...(stored.choices ?? {}) },
  };
}

export type FormProblem = { field: string; kind: 'tooLong'; max: number } | { field: string; kind: 'customRequired' };

/** What must be fixed before the form is sent: texts over their limit, "other" without text. */
export function formProblems(form: FabricForm): FormProblem[] {
  const problems: FormProblem[] = [];
  for (const field of SHORT_TEXT_FIELDS) {
    if (form.text[field].trim().length > SHORT_MAX) problems.push({ field, kind: 'tooLong', max: SHORT_MAX });
  }
  for (const field of CHOICE_FIELD_NAMES) {
    const { choice, custom } = form.choices[field];
    if (choice !== OTHER) continue;
    if (!custom.trim()) problems.push({ field, kind: 'customRequired' });
    else if (custom.trim().length > SHORT_MAX) problems.push({ field, kind: 'tooLong', max: SHORT_MAX });
  }
  for (const field of LONG_TEXT_FIELDS) {
    if (form.text[field].trim().length > LONG_MAX) problems.push({ field, kind: 'tooLong', max: LONG_MAX });
  }
  return problems;
}

/**
 * The analyse call's fabric_info: only the fields given, a preset as its label in the run's
 * language (the analysis is written in it), "other" as the designer's own words.
 */
export function fabricInfo(form: FabricForm, presetLabel: (field: ChoiceField, key: string) => string): Record<string, string> {
  const info: Record<string, string> = {};
  for (const field of [...SHORT_TEXT_FIELDS, ...LONG_TEXT_FIELDS]) {
    const value = form.text[field].trim();
    if (value) info[field] = value;
  }
  for (const field of CHOICE_FIELD_NAMES) {
    const { choice, custom } = form.choices[field];
    if (!choice) continue;
    const value = choice === OTHER ? custom.trim() : presetLabel(field, choice);
    if (value) info[field] = value;
  }
  return info;
}

export function filledFieldCount(form: FabricForm): number {
  return Object.keys(fabricInfo(form, (_f, key) => key)).length;
}
