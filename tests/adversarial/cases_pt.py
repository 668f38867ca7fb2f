"""cases_pt.py - hostile PyTorch checkpoints and pickles (issue 19), the ones
tests/cli/pt_hostile.py writes (but its 1 MB stack and its zip bomb, which
pt_checkpoint.sh keeps): pickles that would run a shell command
(posix.system, os.system, builtins.exec, subprocess.Popen, a reduce chain
through getattr and __import__, NEWOBJ and BUILD of a foreign class), memo
and MARK bombs, a pickle cut short, zip entries past the end and
overlapping, a compressed data.pkl, a legacy checkpoint cut after its
version. The commands they would run touch /tmp/nnav-adversarial-PWNED;
nothing here runs them. What each must do: expect_pt.txt.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import pt_hostile  # noqa: E402


def small_cases():
    return {"pt_" + name: data
            for name, data in pt_hostile.make("/tmp/nnav-adversarial-PWNED", big=False).items()}
