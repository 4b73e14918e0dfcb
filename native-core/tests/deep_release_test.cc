// Releasing containers and object graphs of any depth uses constant native stack: the last release of a deep
// chain runs on a thread whose stack could not hold one frame per level.
#include <pthread.h>

#include <functional>

#include "test_util.h"

namespace {

using namespace packed4j;
using namespace packed4j::testing;

/*! \brief Deep enough that one deleter frame per level (100+ bytes each) would need tens of MB of stack. */
constexpr int kDepth = 1000000;
/*! \brief The stack of the releasing thread: a few hundred levels of recursion at most would fit. */
constexpr size_t kSmallStack = 128 * 1024;

/*! \brief A user object holding the next one, as a linked structure in a plugin would. */
class ChainObject : public Object {
 public:
  ObjectRef next;
  int64_t level = 0;
  void VisitAttrs(AttrVisitor* v) final {
    v->Visit("next", &next);
    v->Visit("level", &level);
  }
  static constexpr const char* _type_key = "test.Chain";
  P4J_DECLARE_OBJECT_TYPE_INFO(ChainObject, Object);
};
P4J_REGISTER_OBJECT_TYPE(ChainObject);

/*! \brief Runs body on a new thread with a small stack and waits for it. */
void RunOnSmallStack(std::function<void()> body) {
  pthread_attr_t attributes;
  ASSERT_EQ(pthread_attr_init(&attributes), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, kSmallStack), 0);
  pthread_t thread;
  auto run = [](void* argument) -> void* {
    (*static_cast<std::function<void()>*>(argument))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attributes, run, &body), 0);
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  pthread_attr_destroy(&attributes);
}

TEST(DeepReleaseTest, ANestedListOfAnyDepthIsReleasedWithConstantStack) {
  int64_t before = P4JObjectLiveCount();
  List<Any> chain;
  for (int level = 0; level < kDepth; ++level) {
    List<Any> outer;
    outer.push_back(chain);
    outer.push_back(level);
    chain = std::move(outer);
  }
  EXPECT_EQ(P4JObjectLiveCount() - before, kDepth + 1);
  RunOnSmallStack([&] { chain = List<Any>(); });
  // The fresh empty list is the one object left.
  EXPECT_EQ(P4JObjectLiveCount() - before, 1);
}

TEST(DeepReleaseTest, ANestedMapOfAnyDepthIsReleasedWithConstantStack) {
  int64_t before = P4JObjectLiveCount();
  ObjectRef chain = Map<std::string, Any>();
  // Maps cost more to build than lists; a fifth of the depth is still far past what the stack could recurse.
  for (int level = 0; level < kDepth / 5; ++level) {
    Map<std::string, Any> outer;
    outer.Set("next", chain);
    outer.Set("name", std::string("level"));
    chain = outer;
  }
  RunOnSmallStack([&] { chain = ObjectRef(); });
  EXPECT_EQ(P4JObjectLiveCount(), before);
}

TEST(DeepReleaseTest, AChainOfUserObjectsThroughListsIsReleasedWithConstantStack) {
  int64_t before = P4JObjectLiveCount();
  ObjectRef chain;
  for (int level = 0; level < kDepth / 2; ++level) {
    auto node = make_object<ChainObject>();
    node->level = level;
    // Alternate objects of this library with lists of the core: both libraries' deleters are in the chain.
    List<Any> link;
    link.push_back(chain);
    node->next = link;
    chain = ObjectRef(node);
  }
  RunOnSmallStack([&] { chain = ObjectRef(); });
  EXPECT_EQ(P4JObjectLiveCount(), before);
}

TEST(DeepReleaseTest, AWideGraphIsReleasedOnceEach) {
  int64_t before = P4JObjectLiveCount();
  {
    List<Any> shared{1, 2, 3};
    List<Any> root;
    for (int i = 0; i < 1000; ++i) {
      List<Any> branch;
      branch.push_back(shared);
      branch.push_back(List<Any>{i});
      root.push_back(branch);
    }
    EXPECT_EQ(shared.use_count(), 1001u);
  }
  EXPECT_EQ(P4JObjectLiveCount(), before);
}

}  // namespace
