#!/usr/bin/env bash
# Compares two builds of feed-bench (before and after a change) on this machine: runs
#   java -jar JAR --only append,catchup --append-batches 1,100          (the SQLite rows)
#   java -jar JAR --store postgres --append-batches 1,100               (the PostgreSQL rows)
# for BEFORE_JAR and AFTER_JAR alternately (before, after, before, after, ...), PAIRS times each,
# keeps every table and every run's progress lines in OUT_DIR, and prints per metric the median of
# each side, the change of the medians, the spread of each side (max - min, as a share of its median)
# and the range of the pairs' own changes (after / before of the same pair).
#
# A change counts as within 5 % when the change of the medians is at most 5 % the wrong way, or
# within the range of the pairs' changes (docs/storage.md). Run it on a quiet machine: other
# processes move these figures by more than 5 %. It takes about 6 minutes per pair and store.
#
# With ROWS=live in the environment it runs instead, on SQLite only (about 5 minutes per pair),
#   java -jar JAR --only fanout,ssefanout,streamsfanout,httpappend --append-batches 1,100
# and compares the live streams' rows: p50, p99, undelivered and server CPU per delivery of Watch,
# Server-Sent Events and Durable Streams fan-out, and the HTTP append rows (docs/live.md).
#
# usage: [ROWS=append|live] feed-bench/compare.sh BEFORE_JAR AFTER_JAR [PAIRS (5)] [OUT_DIR (feed-bench/results/compare-TIME)]
set -euo pipefail

if [[ $# -lt 2 ]]; then
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
before_jar=$1
after_jar=$2
pairs=${3:-5}
out=${4:-feed-bench/results/compare-$(date -u +%Y%m%dT%H%M%SZ)}
for jar in "$before_jar" "$after_jar"; do
  [[ -f $jar ]] || { echo "no such jar: $jar (build it with ./mvnw -pl feed-bench -am package -DskipTests)" >&2; exit 2; }
done
[[ $pairs =~ ^[1-9][0-9]*$ ]] || { echo "PAIRS must be a whole number >= 1, was '$pairs'" >&2; exit 2; }
declare -A args
case ${ROWS:-append} in
  append)
    stores=(sqlite postgres)
    args[sqlite]="--only append,catchup --append-batches 1,100"
    args[postgres]="--store postgres --append-batches 1,100"
    metrics='(batch1|batch100)(\.server_cpu_per_block|\.p50)?$|^catchup\.(rate|server_cpu_per_block|replica_cpu_per_block)$'
    ;;
  live)
    stores=(sqlite)
    args[sqlite]="--only fanout,ssefanout,streamsfanout,httpappend --append-batches 1,100"
    metrics='^((sse|streams)\.)?fanout\.(p50|p99|undelivered|server_cpu_per_delivery)$|^http\.append\.batch(1|100)(\.server_cpu_per_block)?$'
    ;;
  *) echo "ROWS must be append or live, was '$ROWS'" >&2; exit 2 ;;
esac
mkdir -p "$out"

run() { # store side pair jar
  local file="$out/$1-$2-$3"
  echo "[$(date -u +%H:%M:%S)] $1 $2 $3/$pairs" >&2
  # shellcheck disable=SC2086
  if ! java -jar "$4" ${args[$1]} --out "$file.txt" >/dev/null 2>"$file.log"; then
    echo "  the run failed; its output is in $file.log" >&2
  fi
}

for pair in $(seq 1 "$pairs"); do
  for store in "${stores[@]}"; do
    run "$store" before "$pair" "$before_jar"
    run "$store" after "$pair" "$after_jar"
  done
done

# The table rows of every run: store side pair metric value.
rows() {
  for file in "$out"/*-*-*.txt; do
    name=$(basename "$file" .txt)
    IFS=- read -r store side pair <<<"$name"
    awk -F'|' -v store="$store" -v side="$side" -v pair="$pair" \
      '!/^#/ && $1 !~ /^metric/ && NF >= 3 { gsub(/ /, "", $1); gsub(/ /, "", $2); if ($2 != "-") print store, side, pair, $1, $2 }' \
      "$file"
  done
}

{
  echo "# feed-bench/compare.sh: before $before_jar, after $after_jar, $pairs pairs, alternating; tables and logs in $out"
  echo "# median of each side; change = after/before - 1 of the medians; spread = (max - min) / median of a side;"
  echo "# pairs = the range of after/before over the pairs; within 5 %: the change is at most 5 % the wrong way, or within the pairs' range"
  rows | METRICS=$metrics awk '
    function median(list, n,    sorted, i, j, t) {
      for (i = 1; i <= n; i++) sorted[i] = list[i]
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (sorted[j] < sorted[i]) { t = sorted[i]; sorted[i] = sorted[j]; sorted[j] = t }
      return n % 2 ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
    }
    {
      key = $1 " " $4
      if (!(key in seen)) { seen[key] = 1; order[++keys] = key }
      value[key, $2, $3] = $5
      if ($3 > pairs) pairs = $3
    }
    END {
      printf "%-9s %-52s %10s %10s %8s %8s %8s %17s  %s\n", "store", "metric", "before", "after", "change", "spread-b", "spread-a", "pairs", "within 5 %"
      for (k = 1; k <= keys; k++) {
        key = order[k]
        split(key, part, " ")
        if (part[2] !~ ENVIRON["METRICS"]) continue
        nb = 0; na = 0; np = 0; lo = 1e300; hi = -1e300
        for (p = 1; p <= pairs; p++) {
          b = value[key, "before", p]; a = value[key, "after", p]
          if (b != "") bs[++nb] = b
          if (a != "") as[++na] = a
          if (b != "" && a != "" && b > 0) { r = a / b; np++; if (r < lo) lo = r; if (r > hi) hi = r }
        }
        if (nb == 0 || na == 0) {
          tb = "-"; ta = "-"
          if (nb) tb = median(bs, nb)
          if (na) ta = median(as, na)
          printf "%-9s %-52s %10s %10s\n", part[1], part[2], tb, ta
          continue
        }
        mb = median(bs, nb); ma = median(as, na)
        minb = bs[1]; maxb = bs[1]
        for (i = 2; i <= nb; i++) { if (bs[i] < minb) minb = bs[i]; if (bs[i] > maxb) maxb = bs[i] }
        mina = as[1]; maxa = as[1]
        for (i = 2; i <= na; i++) { if (as[i] < mina) mina = as[i]; if (as[i] > maxa) maxa = as[i] }
        change = 0
        if (mb > 0) change = ma / mb - 1
        # blocks/s: higher is better; CPU per block or delivery, delays and undelivered blocks: lower is better
        worse = -change
        if (part[2] ~ /(cpu_per_block|cpu_per_delivery|\.p50|\.p99|undelivered)$/) worse = change
        ok = "NO"
        if (worse <= 0.05 || (np > 0 && 1 + change >= lo && 1 + change <= hi)) ok = "yes"
        spreadb = 0; spreada = 0; low = 0; high = 0
        if (mb > 0) spreadb = 100 * (maxb - minb) / mb
        if (ma > 0) spreada = 100 * (maxa - mina) / ma
        if (np > 0) { low = 100 * (lo - 1); high = 100 * (hi - 1) }
        printf "%-9s %-52s %10.1f %10.1f %+7.1f%% %7.1f%% %7.1f%% %+7.1f%%..%+.1f%%  %s\n", part[1], part[2], mb, ma, \
          100 * change, spreadb, spreada, low, high, ok
      }
    }'
} | tee "$out/summary.txt"
