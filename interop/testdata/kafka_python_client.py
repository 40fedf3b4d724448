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
"""
import json
import sys
import time

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewPartitions


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
    else:
        raise SystemExit("unknown operation " + op)
    json.dump(out, sys.stdout)


main()
