"""`python -m trainproof ARGS...`: the trainproof command line that `pip install trainproof` put
in this environment's scripts folder (bin/, beside python), run with ARGS, as `trainproof ARGS...`
would be: `python -m trainproof check -- python train.py`."""
import os
import shutil
import sys
import sysconfig


def program():
    """The installed trainproof program: this environment's scripts folder, then the user
    scheme's (pip install --user), then PATH; None when there is none."""
    folders = [sysconfig.get_path("scripts")]
    try:
        folders.append(sysconfig.get_path("scripts", f"{os.name}_user"))
    except KeyError:
        pass
    for folder in folders:
        path = os.path.join(folder, "trainproof")
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return shutil.which("trainproof")


def main():
    path = program()
    if path is None:
        print("trainproof: no trainproof program in this environment's scripts folder or on PATH; "
              "`pip install trainproof` installs it (this package alone is only the recorder)", file=sys.stderr)
        return 3
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, [path] + sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
