#include "scl/syntax.h"

namespace scl::syntax {

namespace {

void clear(PdItem& item);
void clear(Primitive& primitive);
void clear(Transition& transition);
void clear(Phase& phase);
void clear(Define& define);
void clear(Finally& finally);
void clear(SceneHeader& scene);
void clear(WorldArgument& argument);
void clear(WorldStatement& statement);
void clear(ClipDecl& clip);

void clear(SourceLocation& location) { location = {}; }
void clear(Name& name) { clear(name.location); }
void clear(NumberLit& number) { clear(number.location); }
void clear(ComCondition& com) { clear(com.value); }
void clear(Vec& vec) {
  clear(vec.location);
  clear(vec.x);
  clear(vec.y);
}
template <typename T>
void clear(std::optional<T>& value) {
  if (value) clear(*value);
}
template <typename T>
void clear(std::vector<T>& values) {
  for (auto& value : values) clear(value);
}
void clear(PdItem& item) {
  clear(item.joint);
  clear(item.angle);
}
void clear(Pd& pd) {
  clear(pd.items);
  clear(pd.time);
}
void clear(Vf& vf) {
  clear(vf.values);
  clear(vf.on);
  clear(vf.by);
}
void clear(Ik& ik) {
  clear(ik.targets);
  clear(ik.on);
  clear(ik.rel);
  clear(ik.time);
}
void clear(Relax& relax) {
  clear(relax.joints);
  clear(relax.strength);
}
void clear(Gc& gc) {
  clear(gc.by);
  clear(gc.strength);
}
void clear(Symm&) {}
void clear(TaskArgs& args) {
  clear(args.kp);
  clear(args.kd);
  clear(args.time);
  clear(args.weight);
  clear(args.priority);
  clear(args.velocity);
}
void clear(Com& com) {
  clear(com.target);
  clear(com.args);
}
void clear(AngMom& angmom) {
  clear(angmom.target);
  clear(angmom.args);
}
void clear(Track& track) {
  clear(track.on);
  clear(track.toBody);
  clear(track.position);
  clear(track.angle);
  clear(track.args);
}
void clear(ClipArgs& args) {
  clear(args.clips);
  clear(args.speed);
  clear(args.from);
  clear(args.loop);
  clear(args.nearest);
}
void clear(Posture& posture) {
  clear(posture.args);
  clear(posture.clip);
}
void clear(ClipItem& item) {
  clear(item.args);
  clear(item.joints);
}
void clear(Support& support) {
  clear(support.links);
  support.ends.clear();
}
void clear(Grasp& grasp) {
  clear(grasp.links);
  clear(grasp.body);
  clear(grasp.reach);
  clear(grasp.grip);
}
void clear(Force& force) {
  clear(force.link);
  clear(force.force);
  clear(force.max);
  clear(force.args);
}
void clear(Swing& swing) {
  clear(swing.foot);
  clear(swing.target);
  clear(swing.lift);
  clear(swing.feedback);
  clear(swing.args);
}
void clear(Use& use) { clear(use.block); }
void clear(Primitive& primitive) {
  clear(primitive.location);
  std::visit([](auto& node) { clear(node); }, primitive.node);
}
void clear(Transition& transition) {
  clear(transition.location);
  clear(transition.targets);
  clear(transition.body);
  clear(transition.holding);
  clear(transition.released);
  clear(transition.com);
  clear(transition.after);
  clear(transition.timeout);
  clear(transition.backto);
  clear(transition.times);
}
void clear(Phase& phase) {
  clear(phase.location);
  clear(phase.end);
  clear(phase.name);
  clear(phase.mirrorOf);
  clear(phase.primitives);
  clear(phase.exit);
  phase.recovered = false;
}
void clear(Define& define) {
  clear(define.location);
  clear(define.end);
  clear(define.name);
  clear(define.primitives);
  define.recovered = false;
}
void clear(Finally& finally) {
  clear(finally.location);
  clear(finally.transition);
  clear(finally.backto);
  clear(finally.times);
}
void clear(SceneHeader& scene) {
  clear(scene.location);
  clear(scene.character);
  clear(scene.pose);
  clear(scene.environment);
  clear(scene.height);
  clear(scene.duration);
  clear(scene.world);
}
void clear(WorldArgument& argument) {
  clear(argument.key);
  clear(argument.number);
  clear(argument.vec);
  clear(argument.word);
}
void clear(ClipDecl& clip) {
  clear(clip.location);
  clear(clip.name);
  clear(clip.file);
}
void clear(WorldStatement& statement) {
  clear(statement.location);
  clear(statement.kind);
  clear(statement.name);
  clear(statement.arguments);
}

}  // namespace

Script withoutLocations(Script script) {
  clear(script.scene);
  clear(script.world);
  clear(script.clips);
  clear(script.defines);
  clear(script.phases);
  clear(script.finally);
  return script;
}

}  // namespace scl::syntax
