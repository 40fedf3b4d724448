package kafkalog

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/vfs"
)

func TestCleanShutdownMarker(t *testing.T) {
	// J8: write with broker epoch 10, read 10; extra fields ignored; absent → not present.
	fsys := vfs.NewMem()
	require.NoError(t, fsys.MkdirAll("logs", 0o755))
	got, err := ReadCleanShutdownMarker(fsys, "logs")
	require.NoError(t, err)
	require.Equal(t, CleanShutdownMarker{}, got)

	require.NoError(t, WriteCleanShutdownMarker(fsys, "logs", 10))
	b, err := readWholeFile(fsys, "logs/"+CleanShutdownFile)
	require.NoError(t, err)
	require.Equal(t, `{"version":0,"brokerEpoch":10}`, string(b))
	got, err = ReadCleanShutdownMarker(fsys, "logs")
	require.NoError(t, err)
	require.Equal(t, CleanShutdownMarker{Present: true, BrokerEpoch: 10, HasBrokerEpoch: true}, got)

	require.NoError(t, RemoveCleanShutdownMarker(fsys, "logs"))
	require.NoError(t, RemoveCleanShutdownMarker(fsys, "logs"), "removing twice is fine")
	got, err = ReadCleanShutdownMarker(fsys, "logs")
	require.NoError(t, err)
	require.False(t, got.Present)

	require.NoError(t, WriteCleanShutdownMarker(fsys, "logs", -1))
	got, err = ReadCleanShutdownMarker(fsys, "logs")
	require.NoError(t, err)
	require.Equal(t, CleanShutdownMarker{Present: true}, got, "an old broker's empty marker still means clean")
}

func TestDecodeCleanShutdown(t *testing.T) {
	type res struct {
		Epoch int64
		OK    bool
	}
	tests := []struct {
		text string
		want res
	}{
		{`{"version":0,"brokerEpoch":10}`, res{10, true}},
		{`{"version":0,"brokerEpoch":10,"futureField":"x"}`, res{10, true}},
		{`{"brokerEpoch":-1}`, res{-1, true}},
		{``, res{}},
		{`{"version":0}`, res{}},
		{`{"brokerEpoch":"10"}`, res{}},
		{`not json`, res{}},
	}
	for _, tc := range tests {
		var got res
		got.Epoch, got.OK = DecodeCleanShutdown([]byte(tc.text))
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("DecodeCleanShutdown(%q) (-want +got):\n%s", tc.text, diff)
		}
	}
}

func TestCleanShutdownRealMarker(t *testing.T) {
	b, err := os.ReadFile(realFile(t, "volodymyrzee-kafka/.kafka_cleanshutdown"))
	require.NoError(t, err)
	require.Empty(t, b, "the 2020 broker wrote an empty marker")
	_, ok := DecodeCleanShutdown(b)
	require.False(t, ok)
}
