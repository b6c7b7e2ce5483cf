" Vim syntax file for SCL, the Simple Controller Language of scl (docs/language.md).
" The language server (`scl lsp`, docs/editors.md) adds what a grammar cannot know:
" diagnostics, and which names are phases, blocks, joints and links.
if exists('b:current_syntax')
  finish
endif

syntax keyword sclPrimitive vf sb ik relax gc symm com angmom track swing posture support grasp force clip
syntax keyword sclTransition after when and or contact established lost changed holding released any all
" `when com QUANTITY < NUM`: the centre of mass's quantities after `when com`, the comparisons.
syntax keyword sclTransition capture
syntax match sclTransition /\(\<when\s\+com\s\+\)\@<=\(x\|y\|vx\|vy\)\>/
syntax match sclOperator /[<>]/
syntax keyword sclTransition backto times finally
syntax keyword sclStructure scene define world
syntax keyword sclBody ground platform wall table stairs slope box ball capsule chain push
syntax keyword sclArgument strength kp kd weight priority child parent
syntax match sclArgument /\<\(on\|by\|rel\|time\|max\|pose\|env\|character\|height\|duration\|world\)\ze\s*:/
" The keys of world statements (`box crate at: (1, 0.2) size: ...`, `push trunk force: ...`,
" docs/scene.md).
syntax match sclArgument /\<\(at\|size\|move\|frequency\|start\|ramp\|reach\|grip\|friction\|rise\|run\|count\|landing\|from\|to\|radius\|length\|angle\|mass\|density\|velocity\|spin\|launch\|restitution\|fixed\|force\|for\|lift\|feedback\)\ze\s*:/

syntax keyword sclJoint neckTop neckBottom waist leftShoulder rightShoulder leftElbow rightElbow
syntax keyword sclJoint leftWrist rightWrist leftHip rightHip leftKnee rightKnee leftAnkle
syntax keyword sclJoint rightAnkle necks shoulders elbows wrists hips knees ankles
syntax keyword sclLink head neck trunk pelvis leftArm rightArm leftForearm rightForearm leftHand
syntax keyword sclLink rightHand leftThigh rightThigh leftShank rightShank leftFoot rightFoot
syntax keyword sclLink arms forearms hands thighs shanks feet

" `{ (name)`, `: (name)` and `backto name`: phase names.
syntax match sclPhase /\((\s*\)\@<=\h\w*\ze\s*)/
syntax match sclPhase /\(\<backto\s\+\)\@<=\h\w*/
syntax match sclBlock /\(\<define\s\+\)\@<=\h\w*/

syntax match sclParameter /@[-+]\=\(\d\+\.\=\d*\|\.\d\+\)\([eE][-+]\=\d\+\)\=/
syntax match sclNumber /\(\<\|[-+.]\)\@<![-+]\=\(\d\+\.\=\d*\|\.\d\+\)\([eE][-+]\=\d\+\)\=/
syntax region sclString start=/"/ end=/"/ oneline
syntax match sclComment "//.*$" contains=@Spell

highlight default link sclPrimitive Statement
highlight default link sclTransition Conditional
highlight default link sclOperator Operator
highlight default link sclStructure PreProc
highlight default link sclBody Type
highlight default link sclArgument Keyword
highlight default link sclJoint Identifier
highlight default link sclLink Type
highlight default link sclPhase Function
highlight default link sclBlock Function
highlight default link sclParameter Special
highlight default link sclNumber Number
highlight default link sclString String
highlight default link sclComment Comment

let b:current_syntax = 'scl'
