/**
 * Soundness sketches of the generated mutants that must not be caught with a leak: each says why the
 * weakening cannot make two related runs distinguishable. Reviewed in docs/variants.md ("Generated
 * mutants"). A survivor without a sketch is reported as UNEXPLAINED by `llmbda mutants`, and
 * test/mutants.test.ts fails on it; a sketched mutant that a suite catches *with a leak* fails it too.
 *
 * Two kinds. *Equivalent*: the dropped operand is already below the others, by Confinement (Lemma 1) —
 * a premise evaluated at pc returns a value labelled ⊒ pc, so its deep label n ⊒ pc. *Sound but not
 * equivalent*: the weakening only removes a restriction that the program asked for and that no secret
 * reaches; TIPNI's proof for the reference never uses it. For these the derived ⇓♯ may not satisfy
 * Stripping (its skip rule 6/7 was designed for the reference check), which `llmbda mutants` then shows
 * as "caught: law fails" — a failed proof lemma, not a leak.
 */
export const MUTANT_SKETCHES: Readonly<Record<string, string>> = {
  'm-label-flow-body-drop-pc':
    'equivalent: V1 is produced at pc, so its deep label n ⊒ pc (Confinement) and n ⊔ l = pc ⊔ n ⊔ l.',
  'm-label-test-body-drop-pc':
    'equivalent: n ⊒ pc by Confinement of the first premise, so the body runs at pc ⊔ n as before.',
  'm-label-test-result-drop-pc':
    'equivalent: n ⊒ pc by Confinement of the first premise, so n ⊔ l = pc ⊔ n ⊔ l.',
  'm-endorse-body-drop-pc':
    'equivalent: n ⊒ pc by Confinement of the first premise, so the body runs at pc ⊔ n as before.',
  'm-prim-result-drop-pc':
    'equivalent: V is produced at pc, so deepLabel(V) ⊒ ℓ(V) ⊒ pc (Confinement) and deep = pc ⊔ deep.',
  'm-label-flow-body-drop-l':
    'sound: l only raises the pc on the program\'s request; the control flow into e2 depends on V1 only through n, which is kept. In related runs e2 is the same code either way, and the reference\'s TIPNI proof uses l only for Confinement (pc ⊔ n ⊑ pc ⊔ n ⊔ l still ⊒ pc).',
  'm-label-test-body-drop-n':
    'sound: e2 runs whatever V1 is (LabelTest never branches on it), so raising its pc by n protects nothing that depends on V1; the answer, which does depend on V1, keeps pc ⊔ n ⊔ l.',
  'm-label-assert-policy-off':
    'sound: the assertion now always passes, returning pc:{} with C2: the result no longer depends on l2 or l at all (the reference may stop in one run and not the other, which TIPNI allows; the mutant never does).',
  'm-label-assert-n-check-off':
    'sound (the catalogue control assert-drops-n-check): without n ⊑ pc the policy value may be high, but the outcome is pass or stuck, and stuck is missing mass, which TIPNI (termination-insensitive) allows; no value or conversation depends on it. ⇓♯ rule 7 relies on n ⊑ pc, so Stripping may fail for the derived ⇓♯: a proof lemma, not a leak.',
};
