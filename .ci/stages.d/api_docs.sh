# SPDX-License-Identifier: BSD-3-Clause
# The API reference (mk/docs.mk): Doxygen over exactly the public headers; it fails if any
# public type or function is undocumented or a doc comment is malformed. Sourced before
# install.sh, whose install round trip then installs the pages as well.
run_stage api-docs make docs
