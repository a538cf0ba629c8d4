// The estimated strength of a password being typed (null: nothing typed, or the estimator is still loading).
import { useEffect, useState } from 'react';
import { loadStrengthEstimator, type StrengthEstimator, type StrengthScore } from '../lib/password-strength';

export function usePasswordStrength(password: string, userInputs: string[] = []): StrengthScore | null {
  const [estimate, setEstimate] = useState<StrengthEstimator | null>(null);
  useEffect(() => {
    if (!password || estimate) return;
    let live = true;
    loadStrengthEstimator().then((e) => live && setEstimate(() => e), () => { /* no meter: the service still checks */ });
    return () => { live = false; };
  }, [password, estimate]);
  if (!password || !estimate) return null;
  return estimate(password, userInputs);
}
