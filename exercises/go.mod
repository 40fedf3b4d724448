module github.com/kafkalive/kafkalive/exercises

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/kafkalive/kafkalive v0.0.0
)

require (
	github.com/klauspost/compress v1.20.4 // indirect
	github.com/pierrec/lz4/v4 v4.1.33 // indirect
	github.com/twmb/franz-go/pkg/kmsg v1.15.1 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)

replace github.com/kafkalive/kafkalive => ../
