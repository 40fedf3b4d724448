package kafkawire

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// APIVersion is one API key and the range of its versions that is served.
type APIVersion struct {
	Key        int16
	MinVersion int16
	MaxVersion int16
}

// ApiVersions' own range, answered by the server: Kafka 3.7's
// (ApiVersionsRequest.json, validVersions 0-3; v3 is flexible and carries the
// client software name and version, KIP-511).
const (
	apiVersionsKey        int16 = 18
	apiVersionsMaxVersion int16 = 3
)

// DefaultAPIVersions returns the keys and ranges the server advertises by
// default: the APIs a client needs, at Kafka 3.7.0's ranges (the validVersions
// of its clients/src/main/resources/common/message/*Request.json), except
// Produce from v3 and Fetch from v4 (record batches v2 only; Fetch v4 brings
// the last stable offset), and ListOffsets from v1 (v0 answers a list of
// offsets). Newer clients negotiate down to these; Kafka 3.7 advertises the same
// maxima. The consumer group protocol (KIP-848) is served at Kafka 4.0's
// ranges: ConsumerGroupHeartbeat and ConsumerGroupDescribe 0-1, ListGroups
// up to v5 (the group types). A world under Kafka 3.7's rules answers a
// ConsumerGroupHeartbeat UNSUPPORTED_VERSION, as a 3.7 broker with the new
// coordinator off does, and clients fall back to the classic protocol.
// Kafka4APIVersions is this table with Kafka 4's floors (KIP-896).
// The read-only admin APIs an observer asks (DescribeLogDirs,
// ListPartitionReassignments, DescribeQuorum, DescribeCluster) are at Kafka
// 4.0's ranges: DescribeLogDirs without v0 (KIP-896), DescribeCluster with v2
// (KIP-1073's fenced brokers).
//
//	key  API               versions  flexible from
//	  0  Produce           3-10      9
//	  1  Fetch             4-16      12 (13+: topic ids)
//	  2  ListOffsets       1-8       6
//	  3  Metadata          0-12      9
//	  8  OffsetCommit      0-9       8
//	  9  OffsetFetch       0-9       6 (8+: several groups)
//	 10  FindCoordinator   0-4       3 (4+: several keys)
//	 11  JoinGroup         0-9       6
//	 12  Heartbeat         0-4       4
//	 13  LeaveGroup        0-5       4
//	 14  SyncGroup         0-5       4
//	 15  DescribeGroups    0-5       5
//	 16  ListGroups        0-5       3 (4+: states filter, 5+: types filter)
//	 18  ApiVersions       0-3       3 (answered by the server)
//	 19  CreateTopics      0-7       5
//	 20  DeleteTopics      0-6       4
//	 22  InitProducerId    0-4       2
//	 23  OffsetForLeaderEpoch 0-4    4 (a consumer's check after a leader change, KIP-320)
//	 24  AddPartitionsToTxn 0-4      3 (4+: brokers' batches, KIP-890)
//	 25  AddOffsetsToTxn   0-3       3
//	 26  EndTxn            0-3       3
//	 27  WriteTxnMarkers   0-1       1 (kafka-transactions abort)
//	 28  TxnOffsetCommit   0-3       3
//	 32  DescribeConfigs   0-4       4
//	 33  AlterConfigs      0-2       2 (the legacy one: a topic's configs replaced)
//	 35  DescribeLogDirs   1-4       2 (4+: the dir's total and usable bytes)
//	 37  CreatePartitions  0-3       2
//	 42  DeleteGroups      0-2       2
//	 44  IncrementalAlterConfigs 0-1 1 (kafka-configs --alter)
//	 46  ListPartitionReassignments 0 0
//	 55  DescribeQuorum    0-2       0 (1+: fetch and catch-up times, KIP-836; 2+: nodes, KIP-853)
//	 60  DescribeCluster   0-2       0 (1+: endpoint type, KIP-919; 2+: fenced brokers, KIP-1073)
//	 61  DescribeProducers 0         0 (KIP-664)
//	 65  DescribeTransactions 0      0 (KIP-664)
//	 66  ListTransactions  0         0 (KIP-664)
//	 68  ConsumerGroupHeartbeat 0-1  0 (KIP-848; 1+: member ids made by the client, KIP-1082)
//	 69  ConsumerGroupDescribe 0-1   0 (KIP-848; 1+: member type, KIP-1099)
//	 75  DescribeTopicPartitions 0   0 (Kafka 3.8+, KIP-966: the ISR, eligible
//	                                   leader replicas and last known leader, paged)
func DefaultAPIVersions() []APIVersion {
	return []APIVersion{
		{0, 3, 10},
		{1, 4, 16},
		{2, 1, 8},
		{3, 0, 12},
		{8, 0, 9},
		{9, 0, 9},
		{10, 0, 4},
		{11, 0, 9},
		{12, 0, 4},
		{13, 0, 5},
		{14, 0, 5},
		{15, 0, 5},
		{16, 0, 5},
		{apiVersionsKey, 0, apiVersionsMaxVersion},
		{19, 0, 7},
		{20, 0, 6},
		{22, 0, 4},
		{23, 0, 4},
		{24, 0, 4},
		{25, 0, 3},
		{26, 0, 3},
		{27, 0, 1},
		{28, 0, 3},
		{32, 0, 4},
		{33, 0, 2},
		{35, 1, 4},
		{37, 0, 3},
		{42, 0, 2},
		{44, 0, 1},
		{46, 0, 0},
		{55, 0, 2},
		{60, 0, 2},
		{61, 0, 0},
		{65, 0, 0},
		{66, 0, 0},
		{68, 0, 1},
		{69, 0, 1},
		{75, 0, 0},
	}
}

// Versions is a validated table of served keys and ranges: what ApiVersions
// advertises and what the decoder accepts.
type Versions struct {
	list     []APIVersion
	served   map[int16]APIVersion
	features Features
}

// NewVersions checks list (keys known to kmsg, each once, 0 <= min <= max <=
// kmsg's MaxVersion) and returns it as a table sorted by key. ApiVersions is
// always served at 0-3 (added when absent; another range is an error).
func NewVersions(list []APIVersion) (*Versions, error) {
	v := &Versions{served: make(map[int16]APIVersion, len(list)+1)}
	for _, a := range list {
		req := kmsg.RequestForKey(a.Key)
		switch {
		case req == nil:
			return nil, fmt.Errorf("%w: api key %d unknown to kmsg", ErrConfig, a.Key)
		case a.MinVersion < 0 || a.MinVersion > a.MaxVersion || a.MaxVersion > req.MaxVersion():
			return nil, fmt.Errorf("%w: %s versions %d-%d (kmsg knows 0-%d)", ErrConfig, kmsg.NameForKey(a.Key), a.MinVersion, a.MaxVersion, req.MaxVersion())
		case a.Key == apiVersionsKey && (a.MinVersion != 0 || a.MaxVersion != apiVersionsMaxVersion):
			return nil, fmt.Errorf("%w: ApiVersions is served at 0-%d, not %d-%d", ErrConfig, apiVersionsMaxVersion, a.MinVersion, a.MaxVersion)
		}
		if _, dup := v.served[a.Key]; dup {
			return nil, fmt.Errorf("%w: %s listed twice", ErrConfig, kmsg.NameForKey(a.Key))
		}
		v.served[a.Key] = a
	}
	if _, ok := v.served[apiVersionsKey]; !ok {
		v.served[apiVersionsKey] = APIVersion{apiVersionsKey, 0, apiVersionsMaxVersion}
	}
	for _, a := range v.served {
		v.list = append(v.list, a)
	}
	slices.SortFunc(v.list, func(a, b APIVersion) int { return int(a.Key) - int(b.Key) })
	return v, nil
}

// List returns the table, sorted by key.
func (v *Versions) List() []APIVersion { return slices.Clone(v.list) }

// Supports reports whether key is served at version.
func (v *Versions) Supports(key, version int16) bool {
	a, ok := v.served[key]
	return ok && version >= a.MinVersion && version <= a.MaxVersion
}

// softwareNamePattern is ApiVersionsRequest.SOFTWARE_NAME_VERSION_PATTERN
// (Kafka 3.7): what a valid ClientSoftwareName and ClientSoftwareVersion look
// like.
var softwareNamePattern = regexp.MustCompile(`^[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?$`)

// apiVersionsResponse is the server's answer to an ApiVersions request of
// version (Kafka 3.7 KafkaApis.handleApiVersionsRequest and
// ApiVersionsRequest.getErrorResponse):
//   - an unsupported version: the v0 layout, UNSUPPORTED_VERSION and only
//     ApiVersions' own range, so that the client retries at a version it knows
//     (KIP-511);
//   - v3+ with a client software name or version that is not
//     [a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?: INVALID_REQUEST, no keys;
//   - otherwise the table.
//
// ok is false for the first two (the client's software is then not recorded).
func (v *Versions) apiVersionsResponse(req *kmsg.ApiVersionsRequest, version int16) (resp *kmsg.ApiVersionsResponse, ok bool) {
	resp = kmsg.NewPtrApiVersionsResponse()
	if !v.Supports(apiVersionsKey, version) {
		resp.SetVersion(0)
		resp.ErrorCode = errUnsupportedVersion
		k := kmsg.NewApiVersionsResponseApiKey()
		k.ApiKey, k.MinVersion, k.MaxVersion = apiVersionsKey, 0, apiVersionsMaxVersion
		resp.ApiKeys = []kmsg.ApiVersionsResponseApiKey{k}
		return resp, false
	}
	resp.SetVersion(version)
	if version >= 3 && (!softwareNamePattern.MatchString(req.ClientSoftwareName) || !softwareNamePattern.MatchString(req.ClientSoftwareVersion)) {
		resp.ErrorCode = errInvalidRequest
		return resp, false
	}
	for _, a := range v.list {
		k := kmsg.NewApiVersionsResponseApiKey()
		k.ApiKey, k.MinVersion, k.MaxVersion = a.Key, a.MinVersion, a.MaxVersion
		resp.ApiKeys = append(resp.ApiKeys, k)
	}
	if version >= 3 {
		v.addFeatures(resp)
	}
	return resp, true
}

// Kafka's error codes the server itself sends (Errors.java).
const (
	errUnsupportedVersion   int16 = 35
	errInvalidRequest       int16 = 42
	errFetchSessionNotFound int16 = 70
)

// addFeatures puts the features in a v3+ answer (its tagged fields, KIP-584:
// SupportedFeatures, FinalizedFeaturesEpoch, FinalizedFeatures). Without
// finalized features the epoch stays -1, as a broker that knows none
// answers.
func (v *Versions) addFeatures(resp *kmsg.ApiVersionsResponse) {
	for _, f := range v.features.Supported {
		sf := kmsg.NewApiVersionsResponseSupportedFeature()
		sf.Name, sf.MinVersion, sf.MaxVersion = f.Name, f.MinLevel, f.MaxLevel
		resp.SupportedFeatures = append(resp.SupportedFeatures, sf)
	}
	if len(v.features.Finalized) == 0 {
		return
	}
	resp.FinalizedFeaturesEpoch = v.features.FinalizedEpoch
	for _, f := range v.features.Finalized {
		ff := kmsg.NewApiVersionsResponseFinalizedFeature()
		ff.Name, ff.MinVersionLevel, ff.MaxVersionLevel = f.Name, f.MinLevel, f.MaxLevel
		resp.FinalizedFeatures = append(resp.FinalizedFeatures, ff)
	}
}
