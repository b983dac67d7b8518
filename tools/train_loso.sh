#!/bin/sh
# Train the leave-one-source-out networks that benchmarks/vision_generalise.py reads.
#
#   nice -n 10 tools/train_loso.sh pips [OUT [SOURCE...]]      # OUT/pips/<source>/: the 3 real-dice sources
#   nice -n 10 tools/train_loso.sh numerals [OUT [SOURCE...]]  # OUT/numerals/<source>/: banachowicz, burks, lurig
#
# SOURCE... narrows a chain to those sources (to run two of its runs side by side).
# OUT defaults to /work/tmp/loso (never the repository: these networks are not shipped).
# Resumable: a network whose run ended well leaves OUT/.../<network>.done and is not trained
# again; a pips run that was stopped goes on from its last epoch (tools/train_pips.py), a
# numerals run is started over. A network being trained by another
# invocation (OUT/.../<network>.pid names a live process) is left to it. One thread per
# run (OMP_NUM_THREADS=1).
# TRAIN_PYTHON names the training venv's Python (PyTorch; tools/train_numerals.py).
# RENDERS names folders (space-separated) of tools/render_dice.py's photos the numerals networks
# learn from too (tools/train_numerals.py --renders); unset, they learn from the real photos only.
# PIPS_RENDERS=DIR: the pips chain also learns from DIR/<source>/, pip-d6 renders of
# tools/render_dice.py whose floor patches come from the other sources only, with
# tools/train_pips.py --varied (the runs of 2026-12-01 after issue 16's renders: README).
# PIPS_VARIED=DIR: the pips chain also trains the varied detector the shipped reader probes on
# trays its first detector is unsure of (tools/train_pips.py --varied-detector), from DIR/<source>/
# renders (made as PIPS_RENDERS's are), for PIPS_VARIED_EPOCHS epochs (default 40).
# PIPS_DETECTOR_EPOCHS, PIPS_CLASSIFIER_EPOCHS: the pips chain's epochs (default 40 and 25).
# PIPS_OPTIONS: more tools/train_pips.py options for the pips chain, e.g. "--colour-jitter --pip-negatives 2".
# The epochs are shorter than the shipped networks' (pips 200/150, numerals 150/400) so
# that a run fits in a shared 2-core machine's session; vision_generalise.py prints them.
set -eu
chain=${1:?usage: train_loso.sh pips|numerals [OUT]}
out=${2:-/work/tmp/loso}
if [ $# -gt 2 ]; then shift 2; else set --; fi
python=${TRAIN_PYTHON:-/tmp/trainvenv/bin/python}
here=$(dirname "$0")
export OMP_NUM_THREADS=1

# step FOLDER NETWORK COMMAND...: run COMMAND unless FOLDER/NETWORK.done is there
step() {
    folder=$1 network=$2
    shift 2
    [ -e "$folder/$network.done" ] && return 0
    if [ -e "$folder/$network.pid" ] && kill -0 "$(cat "$folder/$network.pid")" 2>/dev/null; then
        return 0
    fi
    mkdir -p "$folder"
    echo $$ >"$folder/$network.pid"
    "$@" >"$folder/$network.log" 2>&1
    touch "$folder/$network.done"
    rm -f "$folder/$network.pid"
}

case $chain in
pips)
    [ $# -gt 0 ] || set -- byler-tray-d6 penlington-desk-d6 patterson-craps-d6-crops
    for source in "$@"; do
        dir=$out/pips/$source
        set --
        [ -z "${PIPS_RENDERS:-}" ] || set -- --renders "$PIPS_RENDERS/$source" --varied
        for network in detector classifier; do
            step "$dir" "$network" "$python" "$here/train_pips.py" --threads 1 --only "$network" \
                --leave-out-source "$source" --out "$dir" --detector-epochs "${PIPS_DETECTOR_EPOCHS:-40}" \
                --classifier-epochs "${PIPS_CLASSIFIER_EPOCHS:-25}" ${PIPS_OPTIONS:-} "$@"
        done
        [ -z "${PIPS_VARIED:-}" ] || step "$dir" varied-detector "$python" "$here/train_pips.py" --threads 1 \
            --varied-detector --leave-out-source "$source" --out "$dir" --renders "$PIPS_VARIED/$source" \
            --varied --detector-epochs "${PIPS_VARIED_EPOCHS:-40}"
    done
    ;;
numerals)
    [ $# -gt 0 ] || set -- banachowicz-mixed-d10 burks-tray-polyhedral lurig-platform-d20
    for source in "$@"; do
        dir=$out/numerals/$source
        for network in classifier detector; do
            step "$dir" "$network" "$python" "$here/train_numerals.py" --threads 1 --only "$network" \
                --leave-out-source "$source" --models "$dir" --detector-epochs 20 --classifier-epochs 40 \
                ${RENDERS:+--renders $RENDERS}
        done
    done
    ;;
*)
    echo "train_loso.sh: no chain '$chain': choose pips or numerals" >&2
    exit 2
    ;;
esac
