#!/usr/bin/env bash
# The course as a student and an instructor meet it: the release's wheel in a fresh virtual
# environment, run in folders outside the checkout.
#   python -m build makes the sdist and, from it, the wheel (what a release publishes);
#   init writes the skeletons and nothing else; check passes a filled-in exercise and
#   fails a skeleton; grade writes the CSV, the feedback and the JSON files it is asked for;
#   the last steps of tutorials 1, 5 and 6 play a game on the student's own structures;
#   Getting started's commands run as the page writes them, from its wheel install on;
#   the instructor builds the Gradescope bundle from the installed wheel alone, and it grades
#   twelve files uploaded flat 120/120, run the way Gradescope runs it.
# The checkout's own .venv (the README's, with the dev extra) builds and runs the tests.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
py="$repo/.venv/bin/python"
[ -x "$py" ] || py=python3
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$py" -m build --outdir "$work/dist" "$repo" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
wheel="$(ls "$work"/dist/solitaire_ds-*.whl)"
ls "$work"/dist/solitaire_ds-*.tar.gz >/dev/null
# the install line for students (README, Teach a course) names the wheel this version builds
for page in README.md docs/how-to/teach-a-course.md docs/tutorials/getting-started.md; do
    grep -qF "$(basename "$wheel")[grading]" "$repo/$page" \
        || { echo "$page should install $(basename "$wheel")"; exit 1; }
done
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
grep -q "Not started: the file is the skeleton." out/feedback/bob.md  # one line, not its every failing test
"$work/venv/bin/python" -c "
import json, sys
data = json.load(open('out/json/alice.json'))
# exercise 1's 19 tests, and exercise 2 (the skeleton) as one "not started" entry
assert data['score'] == 10.0 and len(data['tests']) == 20, (data['score'], len(data['tests']))
"
# play's output wraps at words to 80 columns: a phrase is looked for in its lines joined
joined() { tr '\n' ' ' < "$1" | tr -s ' '; }
# tutorial 1 ends with a game on the student's ArrayStack alone
(cd student && "$sds" play perpetual-motion --seed 1 --impl .) > play1.txt
grep -qF "your ArrayStack (structures/array_stack.py); the package's ArrayQueue, ArrayDeque" <(joined play1.txt)
# tutorial 5: Klondike's runs on the student's ArrayDeque
for n in array_queue array_deque; do cp "$repo/solutions/structures/$n.py" student/structures/; done
(cd student && "$sds" check 5)
(cd student && "$sds" play klondike --seed 1 --impl .) > play5.txt
grep -qF "your ArrayStack (structures/array_stack.py), ArrayQueue (structures/array_queue.py), ArrayDeque (structures/array_deque.py)" <(joined play5.txt)
grep -q "^Result: " play5.txt
# tutorial 6: the same game on the student's linked classes
for n in linked_stack linked_queue linked_deque; do cp "$repo/solutions/structures/$n.py" student/structures/; done
(cd student && "$sds" check 6)
(cd student && "$sds" play klondike --seed 1 --impl . --linked) > play6.txt
grep -qF "your LinkedStack (structures/linked_stack.py), LinkedQueue (structures/linked_queue.py), LinkedDeque (structures/linked_deque.py)" <(joined play6.txt)
# the same deal, the same game, whichever structures carried it (from the game's title on)
diff <(sed -n '/^Klondike\./,$p' play5.txt) <(sed -n '/^Klondike\./,$p' play6.txt)

# Getting started, every command as the page writes it, in order, in a fresh folder that holds
# only the wheel (as a student's does): its console lines (the install ones too), the sample
# sessions' commands (with the exercises they say are done copied in, and the status they
# show), and its Python. One shell runs them all, so `. .venv/bin/activate` and `cd` carry on.
mkdir getting-started
cp "$wheel" getting-started/
"$work/venv/bin/python" - "$repo/docs/tutorials/getting-started.md" "$repo" >getting-started.sh <<'EOF'
import re, shlex, sys
from solitaire_ds.course import exercise
page, repo = sys.argv[1], sys.argv[2]
text = open(page, encoding="utf-8").read()
out = ["set -euo pipefail"]
token = re.compile(r"<!--\s*gen:\s*run\s+(?P<args>[^>]*?)\s*-->"
                   r"|(?P<skip><!--\s*docs-test:\s*skip[^>]*-->\s*\n)?^```(?P<lang>console|python)\n(?P<body>.*?)^```",
                   re.MULTILINE | re.DOTALL)
for match in token.finditer(text):
    if match["args"] is not None:  # a sample session: `solitaire-ds COMMAND` as the page shows it
        args = {key: quoted or bare for key, quoted, bare in re.findall(r'(\w+)=(?:"([^"]*)"|(\S+))', match["args"])}
        for number in filter(None, args.get("done", "").split(",")):
            rel = exercise(int(number)).relpath
            out.append(f"cp {shlex.quote(f'{repo}/solutions/{rel}')} {shlex.quote(rel)}")
        status = int(args.get("status", "0"))
        out.append(f"echo {shlex.quote('$ solitaire-ds ' + args['command'])}")
        out.append(f"status=0; solitaire-ds {args['command']} >/dev/null || status=$?")
        out.append(f'[ "$status" = {status} ] || {{ echo "exited $status, not {status}"; exit 1; }}')
    elif match["lang"] == "console":
        for line in match["body"].replace("\\\n", " ").splitlines():
            if line.startswith("$ "):
                out += [f"echo {shlex.quote(line)}", f"{line[2:]} >/dev/null"]
    elif not match["skip"]:  # a Python block that is a program of its own
        out += ["echo '$ python: the page'\"'\"'s Python'", "python - <<'PYEOF'", match["body"].rstrip("\n"), "PYEOF"]
print("\n".join(out))
EOF
grep -qF 'pip install "./solitaire_ds-' getting-started.sh || { echo "Getting started installs no wheel"; exit 1; }
# the student's shell: none of the checkout's virtual environment on the path
student_path="$(tr ':' '\n' <<<"$PATH" | grep -vxF "$repo/.venv/bin" | paste -sd: -)"
(cd getting-started && env -u VIRTUAL_ENV PATH="$student_path" bash ../getting-started.sh)

# the instructor has the wheel and nothing else: the bundle carries the installed version
"$sds" autograder gradescope --out autograder.zip --hidden 2 >bundle.txt
grep -q "^wrote autograder.zip: setup.sh, run_autograder, course.json, course.toml, secret, $(basename "$wheel")" bundle.txt
"$work/venv/bin/python" - "$wheel" autograder.zip <<'EOF'
import sys, zipfile
theirs = zipfile.ZipFile(sys.argv[1])
ours = zipfile.ZipFile(zipfile.ZipFile(sys.argv[2]).open(sys.argv[1].rsplit("/", 1)[-1]))
def contents(wheel):
    return {n: wheel.read(n) for n in wheel.namelist() if not n.endswith(("/RECORD", "/WHEEL"))}
assert contents(ours) == contents(theirs), sorted(set(contents(ours)) ^ set(contents(theirs)))
EOF
# and it grades the twelve solution files uploaded flat, 120/120, from the root copy of run_autograder
SOLITAIRE_DS_BUNDLE="$work/autograder.zip" "$py" -m pytest -p no:cacheprovider \
    "$repo/tests/grading/test_gradescope.py::test_a_bundle_built_elsewhere_grades_twelve_files_uploaded_flat" \
    | tee gradescope.txt
grep -q "1 passed" gradescope.txt
echo "the course from a wheel: build, init, check, list, grade, the tutorials' games, Getting started and the \
Gradescope bundle work outside the checkout"
