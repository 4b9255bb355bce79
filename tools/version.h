// The one version string of cdtrain, cdpredict and cdscale (--version). Raise it when
// the command line or the model file changes in a way users can see.
#ifndef CDL_TOOLS_VERSION_H_
#define CDL_TOOLS_VERSION_H_

namespace cdl {

inline constexpr const char* kVersion = "0.14.0";

}  // namespace cdl

#endif  // CDL_TOOLS_VERSION_H_
