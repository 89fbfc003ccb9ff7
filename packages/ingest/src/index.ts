// Hospital machine-readable files: readers, validation, normalisation and loading arrive with
// the rate-data issue. The package exists now so that the repository has its final shape.
export {};
