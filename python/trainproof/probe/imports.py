"""Work the probe does once a module is imported: for torch itself (the probe installs then),
and for parts of torch a script may import later (torch.distributed.checkpoint)."""
import sys


def after_import(name, then):
    """Calls then(module) once `name` is imported: now if it is, else right after the script
    imports it (a meta path finder that lets the import run as usual first)."""
    if name in sys.modules:
        then(sys.modules[name])
    else:
        sys.meta_path.insert(0, _AfterImport(name, then))


class _AfterImport:
    def __init__(self, name, then):
        self.name, self.then = name, then

    def find_spec(self, name, path=None, target=None):
        if name != self.name:
            return None
        sys.meta_path.remove(self)
        spec = None
        for finder in sys.meta_path:  # the finders after this one, as the import would ask them
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find is not None else None
            if spec is not None:
                break
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        exec_module, then = spec.loader.exec_module, self.then

        def exec_then(module):
            exec_module(module)
            then(module)

        spec.loader.exec_module = exec_then
        return spec
