"""kafka-python (Debian's python3-kafka) as the interop tests drive it.

usage: kafka_python_client.py OP BOOTSTRAP [ARGS...]; the records to produce
come on stdin, and every answer goes to stdout, as JSON with keys and values
in hex.

  produce TOPIC ACKS          stdin [{"key","value"}]; out [{"key","value","partition","offset"}]
  consume-plain TOPIC PARTS N  out [{"key","value","partition","offset"}]
  consume-group TOPIC GROUP N  reads N records as a member of GROUP, commits, leaves
  committed GROUP TOPIC PARTS  out {"partition": offset}
  list-groups                  out ["group"]
  describe-group GROUP         out {"state","protocol_type","members"}
  add-partitions TOPIC COUNT   grows TOPIC to COUNT partitions; out true
  delete-group GROUP           deletes GROUP; out true
  alter-configs TOPIC          stdin [{"op","name","value"}], SETs only: KafkaAdminClient.alter_configs,
                               the legacy AlterConfigs, whose configs replace the topic's own (this
                               kafka-python has no IncrementalAlterConfigs); out "AlterConfigs"
  describe-configs TOPIC       out {"name": {"value","source"}}, source as DescribeConfigs v2 numbers it
                               (kafka-python's v1 schema reads that byte as is_default: v2 or failure)
"""
import json
import sys
import time

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import ConfigResource, ConfigResourceType, NewPartitions


def rec(m):
    return {"key": m.key.hex(), "value": m.value.hex(), "partition": m.partition, "offset": m.offset}


def read(consumer, n, deadline):
    out = []
    while len(out) < n:
        if time.time() > deadline:
            raise SystemExit("read %d of %d records" % (len(out), n))
        for msgs in consumer.poll(timeout_ms=500).values():
            out.extend(rec(m) for m in msgs)
    return out


def main():
    op, bootstrap, args = sys.argv[1], sys.argv[2].split(","), sys.argv[3:]
    deadline = time.time() + 60
    if op == "produce":
        topic, acks = args[0], args[1]
        p = KafkaProducer(bootstrap_servers=bootstrap, client_id="kafka-python-acks-" + acks,
                          acks="all" if acks == "all" else int(acks), linger_ms=5)
        out = []
        for r in json.load(sys.stdin):
            md = p.send(topic, key=bytes.fromhex(r["key"]), value=bytes.fromhex(r["value"])).get(timeout=30)
            out.append({"key": r["key"], "value": r["value"], "partition": md.partition, "offset": md.offset})
        p.close()
    elif op == "consume-plain":
        topic, parts, n = args[0], int(args[1]), int(args[2])
        c = KafkaConsumer(bootstrap_servers=bootstrap, client_id="kafka-python-plain", enable_auto_commit=False)
        c.assign([TopicPartition(topic, p) for p in range(parts)])
        c.seek_to_beginning()
        out = read(c, n, deadline)
        c.close()
    elif op == "consume-group":
        topic, group, n = args[0], args[1], int(args[2])
        c = KafkaConsumer(topic, bootstrap_servers=bootstrap, client_id="kafka-python-group", group_id=group,
                          auto_offset_reset="earliest", enable_auto_commit=False)
        out = read(c, n, deadline)
        c.commit()
        c.close()  # leaves the group
    elif op == "committed":
        group, topic, parts = args[0], args[1], int(args[2])
        a = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="kafka-python-admin")
        offs = a.list_consumer_group_offsets(group)
        out = {str(tp.partition): om.offset for tp, om in offs.items() if tp.topic == topic and om.offset >= 0}
        a.close()
    elif op == "list-groups":
        a = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="kafka-python-admin")
        out = [g for g, _ in a.list_consumer_groups()]
        a.close()
    elif op == "describe-group":
        a = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="kafka-python-admin")
        (g,) = a.describe_consumer_groups([args[0]])
        if g.error_code != 0:
            raise SystemExit("describe %s: error code %d" % (args[0], g.error_code))
        out = {"state": g.state, "protocol_type": g.protocol_type, "members": len(g.members)}
        a.close()
    elif op == "delete-group":
        a = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="kafka-python-admin")
        for group, err in a.delete_consumer_groups([args[0]]):
            if err.errno != 0:
                raise SystemExit("delete %s: %s" % (group, err))
        out = True
        a.close()
    elif op == "add-partitions":
        a = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="kafka-python-admin")
        resp = a.create_partitions({args[0]: NewPartitions(total_count=int(args[1]))})
        for topic, code, msg in resp.topic_errors:
            if code != 0:
                raise SystemExit("add partitions to %s: error code %d: %s" % (topic, code, msg))
        out = True
        a.close()
    elif op == "alter-configs":
        topic, ops = args[0], json.load(sys.stdin)
        if any(o["op"] != "SET" for o in ops):
            raise SystemExit("alter_configs (AlterConfigs) only sets configs: %s" % ops)
        a = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="kafka-python-admin")
        resp = a.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic, configs={o["name"]: o["value"] for o in ops})])
        for code, msg, _, name in resp.resources:
            if code != 0:
                raise SystemExit("alter the configs of %s: error code %d: %s" % (name, code, msg))
        out = "AlterConfigs"
        a.close()
    elif op == "describe-configs":
        a = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="kafka-python-admin")
        (resp,) = a.describe_configs([ConfigResource(ConfigResourceType.TOPIC, args[0])])
        if resp.API_VERSION < 2:
            raise SystemExit("DescribeConfigs v%d: no config source in kafka-python's schema" % resp.API_VERSION)
        out = {}
        for code, msg, _, name, entries in resp.resources:
            if code != 0:
                raise SystemExit("describe the configs of %s: error code %d: %s" % (name, code, msg))
            for key, value, _, source, _, _ in entries:
                out[key] = {"value": value, "source": source}
        a.close()
    else:
        raise SystemExit("unknown operation " + op)
    json.dump(out, sys.stdout)


main()
