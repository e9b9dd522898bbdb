import fc from 'fast-check';

// A property that fails under a mutant has done its job: shrinking the counterexample (which can take minutes for
// the differential tests) would only turn a killed mutant into a timeout.
fc.configureGlobal({ ...fc.readConfigureGlobal(), endOnFailure: true });
