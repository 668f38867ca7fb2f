# lib.bash - what the weights benchmarks share: sourced by gguf_sparse.sh,
# pt_storages.sh and st_shards.sh.

# The best wall time of 5 runs of the command, in milliseconds.
best() {
    local b=999999 t0 t1 ms
    for _ in 1 2 3 4 5; do
        t0=$(date +%s%N)
        "$@" > /dev/null
        t1=$(date +%s%N)
        ms=$(( (t1 - t0) / 1000000 ))
        [ $ms -lt $b ] && b=$ms
    done
    echo $b
}

# The command's max RSS in KiB ("?" without GNU time).
rss() {
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f %M "$@" 2>&1 > /dev/null | tail -1
    else
        echo "?"
    fi
}
