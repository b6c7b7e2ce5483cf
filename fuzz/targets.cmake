# The fuzz targets and the library each links: one list for fuzz/CMakeLists.txt (the
# libFuzzer builds) and tests/CMakeLists.txt (their replay in the normal build).
set(SCL_FUZZ_TARGETS script objective character world problem trajectory checkpoint model lsp clip
    bvh bvhmap)
set(SCL_FUZZ_LIBRARIES_script scl_lang)
set(SCL_FUZZ_LIBRARIES_objective scl_lang)
set(SCL_FUZZ_LIBRARIES_character scl_lang)
set(SCL_FUZZ_LIBRARIES_world scl_runtime)
set(SCL_FUZZ_LIBRARIES_problem scl_lang)
set(SCL_FUZZ_LIBRARIES_trajectory scl_plot)
set(SCL_FUZZ_LIBRARIES_checkpoint scl_optimize)
set(SCL_FUZZ_LIBRARIES_model scl_sam)
set(SCL_FUZZ_LIBRARIES_lsp scl_lsp)
set(SCL_FUZZ_LIBRARIES_clip scl_lang)
set(SCL_FUZZ_LIBRARIES_bvh scl_lang)
set(SCL_FUZZ_LIBRARIES_bvhmap scl_lang)
