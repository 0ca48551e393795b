"""The gradebook CSV, each student's feedback, and the instructor's log.

Students see their checks, messages, the errors in their answer cells and the notes about their
run. Signs of tampering and leftover processes go to the gradebook's notes and the instructor's
log only, never into a student's feedback.
"""

import csv
import pathlib

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def inert(value):
    """A CSV cell a spreadsheet shows as text, never runs as a formula.

    >>> inert("=HYPERLINK(\\"http://x\\")"), inert("Ada")
    ('\\'=HYPERLINK("http://x")', 'Ada')
    """
    value = str(value)
    return "'" + value if value.startswith(FORMULA_START) else value


def one_line(text):
    """`text` with its line breaks written as `\\n`, so it stays one line of a log.

    >>> one_line("ada: ok\\nbob: forged")
    'ada: ok\\\\nbob: forged'
    """
    return "\\n".join(str(text).splitlines())


def score(result, key):
    """(points earned, points possible) over the key notebooks shown."""
    earned = sum(key_nb.points.get(cid, 1) for key_nb in key for cid in key_nb.checks
                 if result.passed.get(cid))
    return earned, sum(key_nb.max_points for key_nb in key)


def write_gradebook(results, key, out, excel=False):
    """One row per student: points per check, total, max, notes (tampering notes included)."""
    columns = [cid for key_nb in key for cid in key_nb.checks]
    points = {cid: key_nb.points.get(cid, 1) for key_nb in key for cid in key_nb.checks}
    out = pathlib.Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="", encoding="utf-8-sig" if excel else "utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", *columns, "total", "max", "notes"])
        for result in results:
            marks = [points[cid] if result.passed.get(cid) else 0 for cid in columns]
            earned, possible = score(result, key)
            notes = [*result.notes, *result.instructor_notes]
            writer.writerow([inert(result.student), *[_number(m) for m in marks],
                             _number(earned), _number(possible), inert("; ".join(notes))])


def _number(value):
    return int(value) if float(value).is_integer() else value


def feedback_text(result, key):
    earned, possible = score(result, key)
    lines = [f"# Feedback for {result.student}", "",
             f"**{_number(earned)} of {_number(possible)} points.**", ""]
    for note in result.notes:
        lines.append(f"> Note: {note}")
    if result.notes:
        lines.append("")
    if result.cell_errors:
        lines += ["Errors in your own cells (a check after them may fail because of them):", ""]
        lines += [f"- {error}" for error in result.cell_errors]
        lines.append("")
    for key_nb in key:
        lines += [f"## {key_nb.name}", ""]
        if key_nb.name not in result.graded:
            lines += ["Not submitted (or not readable): every check counts 0.", ""]
        for cid in key_nb.checks:
            worth = key_nb.points.get(cid, 1)
            suffix = f" ({_number(worth)} points)" if worth != 1 else ""
            if result.passed.get(cid):
                lines.append(f"- [x] `{cid}` {key_nb.titles[cid]}{suffix}")
            else:
                lines.append(f"- [ ] `{cid}` {key_nb.titles[cid]}{suffix}")
                message = result.messages.get(cid)
                if message:
                    lines += ["", "  ```", *[f"  {part}" for part in message.splitlines()],
                              "  ```", ""]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def progress_line(count, total, result, earned, possible, started, now):
    """`[3/30] ada: 4/4 points in 3.1 s, about 1 min 20 s left`."""
    elapsed = now - started
    left = elapsed / count * (total - count)
    eta = f"{int(left // 60)} min {int(left % 60)} s" if left >= 60 else f"{left:.0f} s"
    notes = [*result.notes, *result.instructor_notes]
    extra = one_line(f"  ({'; '.join(notes)})") if notes else ""
    return (f"[{count}/{total}] {result.student}: {_number(earned)}/{_number(possible)} points "
            f"in {result.seconds:.1f} s, about {eta} left{extra}")
