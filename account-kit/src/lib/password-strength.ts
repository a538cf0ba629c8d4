// The strength meter's estimator (ASVS 2.1.8): zxcvbn-ts with its common and English dictionaries. Loaded with
// import() the first time a new password is typed, so pages without a new-password field (the sign-in page) never
// load its dictionaries (several hundred KB).
export type StrengthScore = 0 | 1 | 2 | 3 | 4;
export type StrengthEstimator = (password: string, userInputs?: string[]) => StrengthScore;

let loading: Promise<StrengthEstimator> | undefined;

export function loadStrengthEstimator(): Promise<StrengthEstimator> {
  loading ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')])
    .then(([core, common, en]) => {
      const zxcvbn = new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...en.dictionary },
        graphs: common.adjacencyGraphs,
        translations: en.translations,
      });
      return (password: string, userInputs: string[] = []) => zxcvbn.check(password, userInputs).score as StrengthScore;
    })
    .catch((err: unknown) => {
      // A failed load (offline) may be retried by the next keystroke.
      loading = undefined;
      throw err;
    });
  return loading;
}

/** How a score is shown: its catalogue key, a colour and the bar's fill (0 is still a sliver, so it shows). */
export function strengthLevel(score: StrengthScore) {
  const keys = ['password.strength.0', 'password.strength.1', 'password.strength.2', 'password.strength.3', 'password.strength.4'] as const;
  const colors = ['red', 'red', 'orange', 'teal', 'green'] as const;
  return { key: keys[score], color: colors[score], value: (score + 1) * 20 };
}
