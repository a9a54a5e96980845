# lit configuration for the npcc test suite.
import os
import lit.formats

config.name = "npcc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".np", ".test", ".mua"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unit"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.npcc_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.npcc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# Generated programs link libnprt from the build tree.
config.environment["NPCC_RUNTIME_DIR"] = os.path.join(config.npcc_obj_root, "lib")

config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%src", config.npcc_src_root))
config.substitutions.append(("%lib", os.path.join(config.npcc_src_root, "lib")))
config.substitutions.append(("%examples", os.path.join(config.npcc_src_root, "examples")))
config.substitutions.append(("%cc", config.c_compiler + " -std=c11 -Wall -Werror"))
config.substitutions.append(("%cxx", config.cxx_compiler + " -std=c++17 -Wall -Werror"))
config.substitutions.append(("%nprt_include", os.path.join(config.npcc_src_root, "runtime", "include")))
# FileCheck is FileCheck-19 on Debian; tests write plain FileCheck.
config.substitutions.append((r"\bFileCheck\b", config.filecheck))
# valgrind checks the compiler's own memory use on a C compile.
import shutil
if shutil.which("valgrind"):
    config.available_features.add("valgrind")
