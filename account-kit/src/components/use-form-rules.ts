// Adapts the pure rules of lib/validation.ts to @mantine/form validators that show catalogue texts.
import { useTranslate } from '../context';
import type { Rule } from '../lib/validation';

export function useRuleValidator() {
  const t = useTranslate();
  return (rule: Rule) => (value: string) => {
    const problem = rule(value ?? '');
    return problem ? t(problem.key, problem.values) : null;
  };
}
