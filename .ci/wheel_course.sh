#!/usr/bin/env bash
# The course as a student and an instructor meet it: the wheel in a fresh virtual
# environment, run in folders outside the checkout.
#   init writes the skeletons and nothing else; check passes a filled-in exercise and
#   fails a skeleton; grade writes the CSV, the feedback and the JSON files it is asked for;
#   the last steps of tutorials 1, 5 and 6 play a game on the student's own structures.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 -m pip wheel --quiet --no-deps -w "$work/wheel" "$repo"
wheel="$(ls "$work"/wheel/solitaire_ds-*.whl)"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "$wheel[grading]"
sds="$work/venv/bin/solitaire-ds"
cd "$work"  # nowhere near the checkout

"$sds" exercises init student
# init writes the exercise skeletons, byte for byte, and never a solution
diff -r -x .solitaire-ds "$repo/exercises" student
if "$sds" exercises init student 2>err.txt; then echo "init over a full folder should refuse"; exit 1; fi
grep -q "is not empty" err.txt

cp "$repo/solutions/structures/array_stack.py" student/structures/array_stack.py
(cd student && "$sds" check 1)                      # filled in: passes
if (cd student && "$sds" check 2 >out.txt); then echo "a skeleton should fail its check"; exit 1; fi
grep -q "first failing test" student/out.txt
(cd student && "$sds" exercises list --no-run) | grep -E "^ +1 .* passed$"

mkdir class out
cp -r student class/alice
cp -r "$repo/exercises" class/bob
"$sds" grade class/alice class/bob --exercise 1 --exercise 2 --jobs 2 \
    --csv out/grades.csv --feedback out/feedback --json-dir out/json
grep -q "^alice,.*,10.00,0.00,10.00," out/grades.csv
grep -q "^bob,.*,0.00,0.00,0.00," out/grades.csv
test -s out/feedback/alice.md && test -s out/feedback/bob.md
grep -q "### " out/feedback/bob.md
"$work/venv/bin/python" -c "
import json, sys
data = json.load(open('out/json/alice.json'))
assert data['score'] == 10.0 and len(data['tests']) == 36, data['score']
"
# tutorial 1 ends with a game on the student's ArrayStack alone
(cd student && "$sds" play perpetual-motion --seed 1 --impl .) > play1.txt
grep -q "your ArrayStack (structures/array_stack.py); the package's ArrayQueue, ArrayDeque" play1.txt
# tutorial 5: Klondike's runs on the student's ArrayDeque
for n in array_queue array_deque; do cp "$repo/solutions/structures/$n.py" student/structures/; done
(cd student && "$sds" check 5)
(cd student && "$sds" play klondike --seed 1 --impl .) > play5.txt
grep -q "your ArrayStack (structures/array_stack.py), ArrayQueue (structures/array_queue.py), ArrayDeque (structures/array_deque.py)" play5.txt
grep -q "^Result: " play5.txt
# tutorial 6: the same game on the student's linked classes
for n in linked_stack linked_queue linked_deque; do cp "$repo/solutions/structures/$n.py" student/structures/; done
(cd student && "$sds" check 6)
(cd student && "$sds" play klondike --seed 1 --impl . --linked) > play6.txt
grep -q "your LinkedStack (structures/linked_stack.py), LinkedQueue (structures/linked_queue.py), LinkedDeque (structures/linked_deque.py)" play6.txt
# the same deal, the same game, whichever structures carried it
diff <(tail -n +2 play5.txt) <(tail -n +2 play6.txt)
echo "the course from a wheel: init, check, list, grade and the tutorials' games work outside the checkout"
