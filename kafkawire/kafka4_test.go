package kafkawire_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kafkalive/kafkalive/kafkawire"
)

// Kafka 4's table is 3.7's with KIP-896's floors (those 4.1 kept) and the
// maxima of transaction.version 2's transactional writes (Produce 12,
// EndTxn 5, TxnOffsetCommit 5): every other key and maximum as 3.7's.
func TestKafka4APIVersionsRaiseKIP896Floors(t *testing.T) {
	raised := map[int16]int16{8: 2, 9: 1, 19: 2, 20: 1, 23: 2, 27: 1, 32: 1}
	maxima := map[int16]int16{0: 12, 26: 5, 28: 5}
	want := map[int16][2]int16{}
	for _, a := range kafkawire.DefaultAPIVersions() {
		lo, hi := a.MinVersion, a.MaxVersion
		if f, ok := raised[a.Key]; ok {
			lo = f
		}
		if m, ok := maxima[a.Key]; ok {
			hi = m
		}
		want[a.Key] = [2]int16{lo, hi}
	}
	got := map[int16][2]int16{}
	for _, a := range kafkawire.Kafka4APIVersions() {
		got[a.Key] = [2]int16{a.MinVersion, a.MaxVersion}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Kafka4APIVersions (-want +got):\n%s", diff)
	}
	// The floors that were there stay: Produce 3, Fetch 4, ListOffsets 1,
	// DescribeLogDirs 1; JoinGroup keeps v0 (4.1, KAFKA-19444).
	for key, lo := range map[int16]int16{0: 3, 1: 4, 2: 1, 35: 1, 11: 0} {
		require.Equal(t, lo, got[key][0], "api key %d", key)
	}
	_, err := kafkawire.NewVersions(kafkawire.Kafka4APIVersions())
	require.NoError(t, err)
}

// The features match franz-go's record of each release's (kversion,
// read from MetadataVersion.java and the feature enums at the release
// tags), a level 0 not listed as finalized: 4.1's transaction.version at
// 2 (KIP-890 part 2).
func TestFeaturesAreTheReleases(t *testing.T) {
	for _, tc := range []struct {
		name string
		ours kafkawire.Features
		them *kversion.Versions
	}{
		{"3.7", kafkawire.Kafka37Features(), kversion.V3_7_0()},
		{"4.1", kafkawire.Kafka41Features(), kversion.V4_1_0()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := kafkawire.Features{}
			tc.them.EachSupportedFeature(func(name string, lo, hi int16) {
				want.Supported = append(want.Supported, kafkawire.Feature{Name: name, MinLevel: lo, MaxLevel: hi})
			})
			tc.them.EachFinalizedFeature(func(name string, level int16) {
				if level > 0 {
					want.Finalized = append(want.Finalized, kafkawire.Feature{Name: name, MinLevel: level, MaxLevel: level})
				}
			})
			if diff := cmp.Diff(want, tc.ours); diff != "" {
				t.Fatalf("features (-franz-go's record +ours):\n%s", diff)
			}
		})
	}
}

// ApiVersions v3 carries the features, older versions do not; SetVersions
// switches what new requests see, floors included: a request below the new
// floor closes the connection, as Kafka 4 refuses a removed version.
func TestApiVersionsFeaturesAndSetVersions(t *testing.T) {
	f := kafkawire.Kafka37Features()
	srv, _, sink := serve(t, kafkawire.Config{Features: &f})
	c := dial(t, srv, 1)
	v2 := c.roundTrip(apiVersions(2)).(*kmsg.ApiVersionsResponse)
	require.Empty(t, v2.SupportedFeatures)
	req := apiVersions(3)
	req.ClientSoftwareName, req.ClientSoftwareVersion = "kafkawire-test", "1"
	v3 := c.roundTrip(req).(*kmsg.ApiVersionsResponse)
	require.Equal(t, []kmsg.ApiVersionsResponseSupportedFeature{{Name: "metadata.version", MinVersion: 1, MaxVersion: 19}}, v3.SupportedFeatures)
	require.Equal(t, []kmsg.ApiVersionsResponseFinalizedFeature{{Name: "metadata.version", MinVersionLevel: 19, MaxVersionLevel: 19}}, v3.FinalizedFeatures)
	require.Equal(t, int64(0), v3.FinalizedFeaturesEpoch)

	f41 := kafkawire.Kafka41Features()
	require.NoError(t, srv.SetVersions(kafkawire.Kafka4APIVersions(), &f41))
	v3 = c.roundTrip(req).(*kmsg.ApiVersionsResponse)
	require.Len(t, v3.FinalizedFeatures, 5)
	require.Contains(t, v3.FinalizedFeatures, kmsg.ApiVersionsResponseFinalizedFeature{Name: "transaction.version", MinVersionLevel: 2, MaxVersionLevel: 2})
	for _, k := range v3.ApiKeys {
		if k.ApiKey == 8 {
			require.Equal(t, int16(2), k.MinVersion, "OffsetCommit's floor")
		}
	}
	// OffsetCommit v1, served by 3.7, is gone
	require.NoError(t, c.write(frameOf(header(8, 1, 1, str16("c"), nil))))
	c.requireClosed()
	require.Eventually(t, func() bool {
		return slices.ContainsFunc(sink.all(), func(l string) bool {
			return strings.Contains(l, "unsupported api version: OffsetCommit version 1")
		})
	}, patience, 10*time.Millisecond)
	require.Error(t, srv.SetVersions([]kafkawire.APIVersion{{Key: 0, MinVersion: 5, MaxVersion: 4}}, nil))
}
