// Test support: EXPECT_BAD_INPUT(statement, "part of the message") expects the statement to
// throw trainproof::BadInput whose message contains the text (the file, the problem).
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "trainproof/core/errors.h"

#define EXPECT_BAD_INPUT(statement, part)                                                  \
  do {                                                                                     \
    bool trainproof_thrown = false;                                                        \
    try {                                                                                  \
      statement;                                                                           \
    } catch (const ::trainproof::BadInput& e) {                                            \
      trainproof_thrown = true;                                                            \
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos)                       \
          << "BadInput says '" << e.what() << "', which does not name '" << (part) << "'"; \
    }                                                                                      \
    EXPECT_TRUE(trainproof_thrown) << #statement " did not throw BadInput";                \
  } while (0)
