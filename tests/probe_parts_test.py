"""The probe's parts (python/trainproof/probe/__init__.py, PARTS) hear each other only through the
core's hooks (core.HOOKS): each public method of a part is a hook the core calls, every hook is
one some part defines, and the core calls them in PARTS' order, a question answered by the first
part that knows. A part's method misspelled as a hook would never be called; the control plants
one and the check must name it."""
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "python"))
from trainproof import probe  # noqa: E402
from trainproof.probe.core import HOOKS, Probe  # noqa: E402


def unheard(part):
    """The public methods of a part class that are no hook: the core never calls them."""
    return sorted(n for n, v in vars(part).items() if callable(v) and not n.startswith("_") and n not in HOOKS)


class PartsTest(unittest.TestCase):
    def test_every_public_method_of_a_part_is_a_hook(self):
        self.assertGreaterEqual(len(probe.PARTS), 5)
        for part in probe.PARTS:
            self.assertEqual(unheard(part), [], f"{part.__name__} has methods no hook calls")

    def test_every_hook_is_defined_by_a_part(self):
        defined = {n for part in probe.PARTS for n in vars(part)}
        self.assertEqual(sorted(set(HOOKS) - defined), [])

    def test_a_misspelled_hook_is_named(self):  # the control
        class Misspelled(probe.ModuleModes):
            def step_recoded(self):
                pass
        self.assertEqual(unheard(Misspelled), ["step_recoded"])

    def test_told_in_order_asked_until_answered(self):
        heard = []

        class First:
            def __init__(self, core):
                pass

            def install(self, torch):
                heard.append("first")

            def trains(self, module):
                return None  # does not know

        class Second(First):
            def install(self, torch):
                heard.append("second")

            def trains(self, module):
                return True

        core = Probe.__new__(Probe)  # the hooks alone: no trace, nothing installed in torch
        core.parts = [First(core), Second(core)]
        core.tell("install", None)
        self.assertEqual(heard, ["first", "second"])
        self.assertIs(core.ask("trains", object()), True)
        with self.assertRaises(AssertionError):
            core.tell("step_recoded")


if __name__ == "__main__":
    unittest.main()
