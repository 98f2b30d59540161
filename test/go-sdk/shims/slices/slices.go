// Package slices: the part of Go 1.21's slices that the vendored otel uses (a shim for Go 1.19).
package slices

import "sort"

func SortStableFunc[S ~[]E, E any](x S, cmp func(a, b E) int) {
	sort.SliceStable(x, func(i, j int) bool { return cmp(x[i], x[j]) < 0 })
}
