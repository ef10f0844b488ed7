import { StepIndicator } from "~/components/ui/step-indicator";

export type DictionaryStep = "application" | "upload" | "review";

const STEPS: { id: DictionaryStep; label: string }[] = [
  { id: "application", label: "Application" },
  { id: "upload", label: "Upload data" },
  { id: "review", label: "Review and apply" },
];

/** The steps of creating a master data dictionary; earlier steps with a link (`links`) can be reopened. */
export function DictionarySteps({ current, links = {} }: { current: DictionaryStep; links?: Partial<Record<DictionaryStep, string>> }) {
  return <StepIndicator label="Data dictionary setup steps" current={current} steps={STEPS.map((s) => ({ ...s, to: links[s.id] }))} />;
}
