"""Who a statement is about and when it holds: the guards that keep a relative's move or a childhood
habit from changing a fact of the user's."""

from __future__ import annotations

import pytest

from memgw.common.formation.structure import (
    a_role_it_names,
    about_someone_else,
    about_someone_named,
    about_user,
    about_what_it_names,
    adds_to,
    agrees_in_ending,
    an_apposition,
    an_episode,
    as_a_role,
    asks,
    changes_a_contact,
    changes_another_thing,
    clauses,
    clauses_alone,
    denies,
    denies_a_change,
    denies_another_thing,
    denies_having,
    denies_without_change,
    done_to_a_thing,
    done_to_a_thing_of,
    ends_a_state,
    ends_what_it_names,
    feels_about_what_holds,
    follows_anothers_move_to,
    for_a_while,
    framed,
    goes_on,
    held_for_long,
    held_since,
    holds_now,
    imagined,
    in_progress,
    in_the_past,
    intends,
    is_question,
    make_believe,
    may_tell_a_change,
    moves_within,
    news_of_someone_else,
    news_of_what_it_names,
    of_the_moment,
    only_takes_up,
    presupposed,
    refers_back,
    says_it_changed,
    sets_a_part_of,
    standing_instruction,
    stated_before_ask,
    switches_to_another_thing,
    takes_back_a_denial,
    the_same_person,
    the_users_own_after_another,
    turns_around,
    updates_a_thing,
    what_a_denial_adds,
    without_clause,
    without_closer,
    without_opener,
    without_reason,
)


@pytest.mark.parametrize(
    "text",
    [
        "My sister just moved to Leeds.",
        "My best friend is vegan.",
        "Our landlord changed the door code.",
        "The office phone number changed last week.",
        "She started at Google.",
        "我妹妹刚搬去了上海。",
        "公司的前台电话换了。",
        "我儿子也对花生过敏。",
        "My husband Ravi is a nurse.",
        "My partner is a nurse.",
        "我老公是医生。",
        "我男朋友是程序员。",  # 程 opens a trade here, not a name
        "我大学同学搬到深圳了。",  # which classmate, as "my old friend" says which friend
        "我前男友结婚了。",
        "My ex moved to Paris.",
        "My best mate moved to Bath last week.",  # a friend, in British English
        "Our firm moved offices to Spinningfields.",  # an organisation the user is part of
        "我们律所搬到了珠江新城。",
        "Our school is getting a new head teacher.",  # as 学校 is among the Chinese
        # People at large, or many of those around the user.
        "Everyone at my gym switched to Garmin watches.",
        "Most of my colleagues drive electric cars now.",
        "Half the people in my street have solar panels.",
        "身边的人都换了折叠屏手机。",
        "我家闺女昨天掉了第一颗牙。",  # 我家 before a person is whose they are
        "Priya's dad retired in May.",  # someone named by whose they are
        "Our MP switched to the Lib Dems.",  # who serves the user is someone else too
        "My vet moved her practice to Hove.",
        "我们组新来的实习生昨天离职了。",  # which of the user's group: as "my old friend" says which friend
        "我们部门的经理下个月退休。",
        "Our intern is moving to Berlin next month.",
        "My mum says I should move back to Leeds.",  # her advice: what she says is hers
        "A new Greggs opened at the end of my street.",  # one told by "a"
        "The longer commute is wearing Sam out.",  # a comparative alone is no correlative
        "奶奶搬去杭州了。",
        "我表哥换工作了。",
        "岳父上个月退休了。",
    ],
)
def test_another_persons_or_things_statement(text: str) -> None:
    assert about_someone_else(text)


@pytest.mark.parametrize(
    "text",
    [
        "I moved to Bristol.",
        "My email is now a@b.example.",
        "New phone number: 0161 496 0000.",
        "我换号了。",
        "用户搬到了西安。",
        # Who someone is to the user is the user's own relationship.
        "My fiancée is called Ines.",
        "My boss's name is Tomasz.",
        "Ravi is my husband.",
        "My partner is Sunita now.",
        "我男朋友叫阿杰。",
        "晓峰是我老公。",
        "我老板是李总。",  # a surname and a title: a name
        "我男朋友是张伟。",
        "我女朋友是小周。",  # 小 or 老 before a surname: a name
        # The user with someone else is the user.
        "My wife and I separated in the spring.",
        "我老婆和我住在北京。",
        # What people at large call the user is the user's, and so is most of the user's own day.
        "Everybody at the club calls me Fitz.",
        "大家都喊我阿杰。",
        "我家在苏州园区。",  # 我家 alone is the user's home
        "Most of my weekend goes on the allotment.",
        "It's my sister's wedding that I'm planning.",  # "it's": no one's person
        "My GP is Dr Okoro.",  # who serves the user, named: the user's own fact
        # What another says of the user is the user's fact, as they tell it.
        "医生说我的血压控制得还行，降压药继续吃。",
        "My consultant said my iron levels are back to normal.",
        "The physio told me my knee has healed well.",
        "A week ago I moved to Leeds.",  # "a" of a time
        "A local bakery hired me.",  # what one told by "a" did to the user
        "The shorter the answer the better for me.",  # a comparative correlative has no other subject
        # A word that opens with a kin character is no person: milk tea, a form, one's old school.
        "奶茶我戒了，一个月没喝了。",
        "表格我已经填好了。",
        "母校请我回去做讲座。",
    ],
)
def test_the_users_own_statement(text: str) -> None:
    assert not about_someone_else(text)


def test_the_subject_the_past_and_questions() -> None:
    assert about_user("I'm vegan.")
    assert about_user("用户住在青岛。")
    assert not about_user("If I were rich I'd retire.")
    assert not about_user("我的朋友是医生。")
    assert in_the_past("I used to live in Leeds as a kid.")
    assert in_the_past("我小时候住在乡下。")
    assert not in_the_past("I live in Leeds.")
    assert is_question("Where should we eat?")
    assert is_question("明天会下雨吗？")


@pytest.mark.parametrize(
    ("text", "past"),
    [
        ("I lived in Edinburgh for two years during uni.", True),  # a stretch that is over
        ("I worked at a call centre for six months.", True),
        ("我在合肥住过几年。", True),  # the experiential 过
        ("I've lived in Edinburgh for two years.", False),  # the perfect: it still holds
        ("I started drinking coffee during my exams.", False),
        ("我在合肥住了三年了。", False),
        ("我读大学的时候在书店打过工。", True),  # a time of life that is over
        ("房子装修好了，我们下周末搬过去。", False),  # 过去 of where a move goes
        ("我上过两年夜校。", True),
        ("我对花粉过敏。", False),  # 过 of another word
        ("Back in 2019 I moved to Oslo for a while.", True),  # "back then", by its year
        ("当年我在深圳打工。", True),
        ("My previous employer was Shell.", True),  # as "我以前的"
        ("I moved back in with my parents.", False),  # "back in" of a move, no time
        ("When we lived in Porto we walked everywhere.", True),  # a time told by a state it was in
        ("When I moved to Porto I knew nobody.", False),  # by an event: a move, which may still hold
        ("我上大学前住在九江。", True),  # before a stage of life
        ("I lived in Derby before uni.", True),
        ("I lived in Reading for a few years after uni.", True),  # how long, in more than a number
        ("I worked at Boots for a couple of months.", True),
        ("I worked in Leeds after university.", True),  # when
        ("I've lived in Leeds for a few years now.", False),  # it holds still
        ("I was a waiter for years before law school.", True),  # a state that lasted, by "was"
        ("I grew up in Derry, moved away at 18.", True),  # growing up
        ("我在宜昌长大。", True),
        ("我大学是在武汉读的。", True),  # where one studied, told as done (是…的)
        ("我是在深圳上班的。", False),  # where one works, told the same way, holds now
        ("我目前住在九江。", False),  # 目前 is now
        ("我前天去了九江。", False),
    ],
)
def test_a_stretch_that_is_over_is_the_past(text: str, past: bool) -> None:
    assert in_the_past(text) is past


@pytest.mark.parametrize(
    ("text", "is_imagined"),
    [
        ("If I worked at Google I'd earn more.", True),
        ("We might move to Porto one day.", True),
        ("I'd love to get a parrot someday.", True),
        ("要是当初学了医，我现在可能是医生。", True),
        ("假如我搬去成都，你觉得怎么样", True),
        ("I keep thinking about moving to the coast.", True),  # a thought, not a plan made
        ("I'm considering a switch to Linux.", True),
        ("我在考虑换工作。", True),
        ("我一直想养只猫，可惜房东不让。", True),
        ("真想辞职去旅行。", True),  # a wish, by how much it is wanted
        ("我特别想换个城市生活。", True),
        ("I'm planning to move to Leeds in May.", False),  # a plan is the user's fact
        ("我想要简短一点的回答。", False),
        ("I moved to Porto last month.", False),
        ("I'd rather have coffee than tea these days.", False),
        ("我搬到成都了。", False),
    ],
)
def test_what_is_only_imagined(text: str, is_imagined: bool) -> None:
    assert imagined(text) is is_imagined


@pytest.mark.parametrize(
    ("text", "planned"),
    [
        ("We intend to sell the flat and rent for a while.", True),
        ("I'm about to apply for a job in Dublin.", True),
        ("我们打算秋天把家搬到嘉兴。", True),
        ("明年我准备去读个在职研究生。", True),
        ("我的车快要保养了。", True),  # about to be: the 了 of what is near
        ("我们马上就要搬去苏州了。", True),
        ("I sold the flat in June and we intend to rent for a while.", False),  # what it tells first is done
        ("我已经在嘉兴了，打算长住。", False),  # a clause that holds now
        ("I'm planning to stay vegetarian now.", False),
        ("我准备好了。", False),  # ready, not a plan
        ("I moved to Dublin.", False),
        ("I'd like to go freelance next year.", True),  # a wish
        ("We're moving to Cork in the spring.", True),  # the present of what is arranged
        ("we're moving offices within Bristol next month", True),  # the progressive, with a time to come
        ("I'm starting at Aldi on Monday.", True),
        ("I'm working from home today.", False),  # this day, not to come
        ("We're renovating the kitchen.", False),
        ("我也想换个离公司近点的房子", True),
        ("我很想念老家", False),  # missing, not wanting
        ("我不想吃辣", False),  # a preference denied
    ],
)
def test_a_plan_is_told_from_what_holds_or_has_changed(text: str, planned: bool) -> None:
    assert intends(text) is planned


@pytest.mark.parametrize(
    ("text", "still"),
    [
        ("I still play five-a-side on Tuesdays.", True),
        ("As always, I'm doing the school run in the mornings.", True),
        ("我仍然在那家诊所做牙医，忙得很。", True),
        ("我照旧每周回一次老家。", True),
        ("I still like Hackney, but we moved to Walthamstow last spring.", False),  # set against it
        ("我还是喜欢那份工作，只是已经辞职了。", False),
        ("我还是决定辞职了。", False),  # a change told
        ("I play five-a-side on Tuesdays.", False),
    ],
)
def test_what_holds_still_is_told_from_what_is_set_against_it(text: str, still: bool) -> None:
    assert goes_on(text) is still


@pytest.mark.parametrize(
    ("text", "adds"),
    [
        ("I'm also allergic to pollen.", True),
        ("I speak Dutch as well.", True),
        ("I have a cat too.", True),
        ("My brother just moved to Edinburgh too, so we're neighbours now.", True),  # closing a clause
        ("I'm too tired to cook.", False),  # a degree, not one more
        ("I don't drink alcohol either.", True),  # one more denial
        ("I opened a savings pot with Chip.", True),  # opening one is one more of its kind
        ("我又开了个支付宝的余额宝。", True),
        ("银行的工作我辞了，现在自己开了个奶茶店。", False),  # an ending first
        ("他跟我开了个玩笑。", False),
        ("Either is fine by me.", False),
        ("我对尘螨也过敏。", True),
        ("I'm allergic to pollen.", False),
        ("I've been to Tokyo twice.", False),
        ("我对尘螨过敏。", False),
        ("我也不太吃羊肉。", True),  # one more denial
        ("我不吃肉也不吃鱼。", False),  # neither … nor: one statement
        ("我一点也不喜欢。", False),  # not at all
        ("我又养了一只狗。", True),  # another one
        ("我又换了一个工作。", False),  # changed again
        ("这个月我又存了五千块。", True),  # as much again, counted
        ("我工资又涨了五百。", False),  # a new value, counted
        ("我又开始喝咖啡了。", False),
        ("I've stopped eating fish as well.", False),  # an ending told as one more
        ("I've cut out red meat too.", False),
        ("I adopted another cat.", True),
        ("We've taken in a second dog, a rescue called Bonnie.", True),  # one more, by its ordinal
        ("I'm a second-year medical student.", False),  # a second-year: which year, not one more
        ("Every release needs a second sign-off.", False),  # asked for, not had
        ("I report to Kevin now, Sandra moved to another team.", False),  # a different one
        ("I left for another company.", False),
    ],
)
def test_an_addition(text: str, adds: bool) -> None:
    assert adds_to(text) is adds


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("I'm allergic to peanuts, so can you suggest a dessert without them?", "I'm allergic to peanuts"),
        ("We moved to Porto in May — any tips for the tram?", "We moved to Porto in May"),
        ("I use Neovim; how do I turn on spell checking?", "I use Neovim"),
        ("我在深圳做前端开发，你能帮我看看这个报错吗？", "我在深圳做前端开发"),
        ("我对海鲜过敏，这道菜能换个做法吗？", "我对海鲜过敏"),
    ],
)
def test_a_question_that_first_states_something_gives_the_statement_without_its_ask(text: str, stated: str) -> None:
    assert stated_before_ask(text) == stated


@pytest.mark.parametrize(
    "text",
    [
        "Can you remind me what the capital of Peru is?",
        "What's a good gift for my wife, she loves orchids?",  # it asks first
        "If I move to Berlin, would I need a visa?",  # what it states is only imagined
        "假设我改行当老师，会有什么变化？",
        "I live in Glasgow.",  # not a question: nothing to take apart
    ],
)
def test_a_question_that_only_asks_or_imagines_states_nothing(text: str) -> None:
    assert stated_before_ask(text) is None


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("btw I'm left-handed", "I'm left-handed"),
        ("Oh and my cat is called Miso", "My cat is called Miso"),  # what is left starts as a sentence does
        ("Heads up: my email changed to sam.k@proton.me", "My email changed to sam.k@proton.me"),
        ("对了，我的新邮箱是 wang.lei@163.com", "我的新邮箱是 wang.lei@163.com"),
        ("哈哈好的，我超喜欢科幻小说。", "我超喜欢科幻小说。"),
        ("Also, I like jazz.", "Also, I like jazz."),  # an addition says so: kept
        ("Well-known fact: I snore.", "Well-known fact: I snore."),
        ("好的东西都贵", "好的东西都贵"),
        ("Okay.", "Okay."),  # nothing but the opener: left as it is
        ("hey, quick update, we moved to York", "We moved to York"),
        ("Remember, no peanuts for me", "No peanuts for me"),
        ("Remember that I'm allergic to shellfish", "I'm allergic to shellfish"),  # an ask to remember what follows
        ("记住我不吃香菜", "我不吃香菜"),
        ("Updated my CV yesterday", "Updated my CV yesterday"),  # a verb, not the opener "update"
        ("跟你说件事，我下个月要去读研了", "我下个月要去读研了"),  # not "件事，…"
        ("告诉你个好消息，我考上编制了", "我考上编制了"),
        ("Big news: we got a puppy", "We got a puppy"),
        ("Again, no onions in anything please", "No onions in anything please"),  # a reminder
        ("Again and again I forget my keys", "Again and again I forget my keys"),  # not one
        ("quick context, I'm a PhD student at Durham", "I'm a PhD student at Durham"),
        ("For reference: my flat is in Bow", "My flat is in Bow"),
        ("Context matters a lot to me", "Context matters a lot to me"),  # a word, not the opener
    ],
)
def test_a_statement_loses_the_interjections_it_opens_with_and_nothing_else(text: str, statement: str) -> None:
    assert without_opener(text) == statement


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("I'm vegetarian btw, for the recipe ideas", "I'm vegetarian"),  # the aside, and why it is said
        ("I'm diabetic, just so you know.", "I'm diabetic"),
        ("I'm a nurse by the way, in case that matters", "I'm a nurse"),
        ("我对猫过敏，顺便说一下", "我对猫过敏"),
        ("I hate mornings lol!!", "I hate mornings"),
        ("I'm eating fish again since my iron got low", "I'm eating fish again since my iron got low"),  # its reason
        ("I work for the record label", "I work for the record label"),  # words, not the aside
        ("I live by the way of the cross", "I live by the way of the cross"),
        ("new phone number btw: 0161 496 0999", "new phone number btw: 0161 496 0999"),  # not at the end
        ("lol", "lol"),  # nothing but the aside: left as it is
    ],
)
def test_a_statement_loses_the_aside_it_closes_with_and_nothing_else(text: str, statement: str) -> None:
    assert without_closer(text) == statement


@pytest.mark.parametrize(
    ("text", "pretend"),
    [
        ("Imagine I ran a bakery in Naples.", True),
        ("Let's pretend you're my chess coach.", True),
        ("Suppose I lost my passport abroad.", True),
        ("咱们来假装在火星上开会。", True),
        ("想象一下我是一名船长。", True),
        ("If I'm offline, email me at jo@example.com.", False),
        ("I imagine the meeting will run late.", False),
        ("我想象力很丰富。", False),
        ("Shall we play a word game?", True),  # a game opened, like a story or a role
        ("咱们来玩成语接龙。", True),
        ("I play the cello in an orchestra.", False),
        ("我来玩儿的时候总迷路。", False),
    ],
)
def test_make_believe_is_told_from_a_condition(text: str, pretend: bool) -> None:
    assert make_believe(text) is pretend


@pytest.mark.parametrize(
    ("text", "standing"),
    [
        ("Please answer in Portuguese.", True),
        ("Write to me in French from now on.", True),
        ("Call me Sam.", True),
        ("请用繁体字回复我。", True),
        ("回答请用英文。", True),
        ("Please reply more formally from now on.", True),  # a manner
        ("Keep your answers short.", True),
        ("Keep answers brief.", True),
        ("回答详细一点。", True),
        ("Reply to him politely.", False),  # one person's reply
        ("回复他的时候客气一点。", False),
        ("Reply to this email in French.", False),  # one thing, named
        ("Call me a taxi.", False),  # not a name
        ("Talk to me in a minute.", False),  # when, not how
        ("Write using a pencil.", False),  # not to me
        ("用英文回复一下他的邮件。", False),
    ],
)
def test_a_standing_instruction_is_told_from_a_request_about_one_thing(text: str, standing: bool) -> None:
    assert standing_instruction(text) is standing


@pytest.mark.parametrize(
    ("text", "momentary"),
    [
        ("I'm shattered today.", True),
        ("今晚我不想做饭。", True),
        ("The wifi is down right now.", True),
        ("I'm studying Japanese at the moment.", False),  # the present stretch of a life, left to the model
        ("I work from home.", False),
    ],
)
def test_of_the_moment_is_this_day_or_minute_only(text: str, momentary: bool) -> None:
    assert of_the_moment(text) is momentary


@pytest.mark.parametrize(
    ("text", "going_on"),
    [
        ("I'm charging my phone.", True),
        ("We're renovating an old mill.", True),
        ("I'm on hold with the council.", True),  # where one is, at something
        ("I'm in sales.", True),  # the form is the same for a stretch of a life
        ("btw I'm currently waiting for a parcel", True),  # after its opener
        ("Just parking the car.", True),  # no subject
        ("我在洗碗。", True),
        ("我在京东做采购。", True),  # 在 before a place: the form says nothing of how long
        ("我们正在登机。", True),
        ("I'm a nurse.", False),
        ("I'm about to leave.", False),
        ("I charge my phone at night.", False),
        ("My sister is training for a marathon.", False),  # someone else's
        ("我在乎你的感受。", False),  # 在乎: to care
        ("我抽烟。", False),
    ],
)
def test_what_is_going_on_is_told_by_its_form(text: str, going_on: bool) -> None:
    assert in_progress(text) is going_on


@pytest.mark.parametrize(
    ("text", "news"),
    [
        ("My cousin is getting married next spring.", True),
        ("My aunt switched to a vegan diet.", True),  # a change of hers
        ("Our neighbour will be away until May.", True),
        ("我侄子秋天要上大学了。", True),
        ("我哥刚换了一份工作。", True),
        ("My son lost his first tooth.", True),  # the simple past: an event
        ("My grandmother passed away in the spring.", True),
        ("My daughter needs her inhaler every night.", False),  # "-eed" is no past
        ("我女儿今年上初一。", False),  # this year: how things are
        ("My wife is a pharmacist.", False),  # how she is: who the user lives with
        ("我女儿对鸡蛋过敏。", False),
        ("My wife and I are moving to Leeds next month.", False),  # the user's own move
        ("我和老公下个月搬去厦门。", False),
        ("I just switched to an Android phone.", False),  # the user's own news
        ("The deadline moved to next Friday.", False),  # a thing of the user's work, not a person
        ("My manager put me on the night rota last week.", False),  # done to the user: what it tells is kept
        ("They moved me to the Leeds office.", False),
        ("我们公司把我调到了杭州分部。", False),
        ("医生让我少吃盐。", False),
        ("My dentist said I grind my teeth at night.", False),  # what she said of the user is the user's
        ("我男朋友叫小刚。", False),  # who he is: 刚 ends his name, it is no "just"
        ("我老公叫王刚，是个厨师。", False),
    ],
)
def test_another_persons_news_is_told_from_how_they_are_and_from_the_users_own(text: str, news: bool) -> None:
    assert news_of_someone_else(text) is news


@pytest.mark.parametrize(
    ("old", "new", "denies"),
    [
        ("I'm a night owl.", "I'm never in bed before 2am.", True),
        ("我是远程办公的。", "我不用去办公室上班。", True),
        ("I drink coffee every morning.", "I don't drink coffee anymore.", False),  # told as a change
        ("我每天早上跑步。", "膝盖受伤以后我就不跑步了。", False),  # 了: a new situation
        ("I don't drink.", "I never touch alcohol.", False),  # both deny: the model's to weigh
        ("I live in Leeds.", "I live in York.", False),  # no denial
    ],
)
def test_a_denial_is_told_from_a_change(old: str, new: str, denies: bool) -> None:
    assert denies_without_change(old, new) is denies


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("I quit smoking in March.", True),
        ("Jonas and I split up over the summer.", True),
        ("我和男朋友分手了。", True),
        ("我戒酒三个月了。", True),
        ("The agency let me go in June.", True),  # a dismissal
        ("公司裁员，我被裁了。", True),
        ("我上个月被公司裁员了。", True),
        ("阿里最近又在裁员。", False),  # what an employer does; the user's only when said of them
        ("我脱单了，有女朋友了！", True),  # singlehood ended
        ("I handed in my notice at Deloitte.", True),
        ("那份工作我辞了。", True),
        ("The Focus is gone, I drive a Kia now.", True),  # a thing gone
        ("I got rid of the car.", True),
        ("I've cut dairy out since the spring.", True),
        ("Six weeks smoke-free today!", True),  # how long it has held
        ("A year sober this month.", True),
        ("Three months without a cigarette.", True),
        ("I bought sugar-free gum.", False),
        ("I started at KPMG.", False),  # a beginning
        ("我调到深圳分公司了。", False),  # a move
        ("I left Google last month.", True),
        ("My left ear doesn't hear well.", False),  # "left" the adjective
        ("I'm left-handed.", False),
    ],
)
def test_an_ending_is_told_from_other_changes(text: str, ends: bool) -> None:
    assert ends_a_state(text) is ends


@pytest.mark.parametrize(
    ("old", "new", "back"),
    [
        ("My wedding is on 12 May.", "The wedding is on May 12th.", True),
        ("Our flat is in Leith.", "The flat has two bedrooms.", True),
        ("I drive a Ford Fiesta.", "The Fiesta is at the garage.", True),  # one the user has
        ("I have an old Kindle.", "the Kindle died on me.", True),
        ("I have a meeting with the Board.", "The Board approved the budget.", False),  # one the user only meets
        ("I live near the park.", "The park is closed.", False),
        ("My sister's wedding is in May.", "The bus was late.", False),
    ],
)
def test_a_thing_named_with_the_is_the_users_when_they_called_it_theirs(old: str, new: str, back: bool) -> None:
    assert refers_back(old, new) is back


@pytest.mark.parametrize(
    ("old", "new", "denies"),
    [
        ("I have two kids.", "I don't have children.", True),
        ("我有两个孩子。", "我没有小孩。", True),
        ("I own a Golf.", "I don't own a car.", True),
        ("I'm a vegetarian.", "I don't eat meat or fish.", False),  # a label said as what one does not do
        ("I don't have a car.", "I have no car.", False),  # both deny
    ],
)
def test_denying_having_is_told_from_saying_a_fact_the_other_way_round(old: str, new: str, denies: bool) -> None:
    assert denies_having(old, new) is denies


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("I changed the tyres on my car.", True),
        ("I moved my desk next to the window.", True),
        ("我把牛奶换成了燕麦奶。", True),
        ("我给车换了新轮胎。", True),
        ("I moved to Bristol.", False),  # the user moved
        ("I finally switched to an iPhone.", False),
        ("I changed my job.", False),  # the fact itself
        ("I sold my car.", False),  # an ending
        ("我们把家搬到了福州。", False),
        ("我把车送去保养了。", True),  # whatever 把 puts before its verb is done to
        ("我把工作辞了。", False),  # an ending
        ("我买了一把伞。", False),  # 把 as a measure word
        ("我给平板配了支笔。", True),  # whatever was done for what 给 names
        ("我给房东交了半年房租。", True),
        ("我给自己找了份新工作。", False),  # for the user themselves
        ("我现在给一家外企打工了。", False),  # for whom the user works
        ("导师给了我一个新课题。", False),  # 给 as "give"
    ],
)
def test_a_change_done_to_a_thing_is_told_from_one_of_the_user(text: str, thing: bool) -> None:
    assert done_to_a_thing(text) is thing


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        ("I don't work at Spotify anymore.", True),
        ("我已经不在腾讯了。", True),  # a denial with 已经 and the 了 of a new situation
        ("I left Spotify in May.", True),
        ("Work at Spotify has been hectic.", False),
        ("I'm at Spotify now.", False),  # "now" without a denial tells no change
        ("I don't like jazz.", False),
        ("I got a job at Tesco, my last day at Ocado was Friday.", True),  # a new job, a last day
        ("I accepted an offer from Stripe.", True),
        ("I was promoted to head of sales.", True),
        ("Ported my number over to Giffgaff.", True),  # a contract moved with its number
        ("公司把我调到了杭州分部。", True),  # a transfer
        ("我下周去字节报到。", True),
        ("我们上个月搬进了新家。", True),  # a move, told by where it goes in
        ("新房交房了，我们全家搬过来了。", True),
        ("I left my reading glasses on the train.", False),  # a thing left somewhere: forgotten
        ("I left my job at the council.", True),
        ("Mum changed her mind about the cruise.", False),  # a mind changed, no state
        ("I'm changing jobs in spring.", True),
        ("我把书桌换了一下位置。", False),  # done for a moment
        ("我换了一家健身房。", True),
        ("我已经不吃辣了。", True),  # a denial with the 了 of a new situation
        ("我受不了香菜的味道。", False),  # 不了: what cannot be done, no aspect
    ],
)
def test_what_says_it_changed(text: str, changed: bool) -> None:
    assert says_it_changed(text) is changed


@pytest.mark.parametrize(
    ("old", "new", "takes_up"),
    [
        ("I'm vegetarian.", "I started buying organic vegetables.", True),
        ("我每天跑步。", "我最近开始用心率表跑步。", True),
        ("I'm vegan.", "I started eating fish again.", False),  # again: back to what the fact had ended
        ("I'm vegan.", "I've started eating fish.", False),  # the perfect: it holds now
        ("我吃素。", "我开始吃肉了。", False),  # the 了 of a new situation
        ("我不喝酒。", "我最近开始喝点红酒。", False),  # the fact turned around
        ("I drive a Golf.", "I started at KPMG, so I sold the Golf.", False),  # an ending besides
        ("I live in Leeds.", "I moved to York.", False),  # no beginning
    ],
)
def test_taking_something_up_is_told_from_a_change(old: str, new: str, takes_up: bool) -> None:
    assert only_takes_up(old, new) is takes_up


@pytest.mark.parametrize(
    ("old", "new", "theirs"),
    [
        ("My girlfriend is Emma.", "Emma changed her hair colour to red.", True),
        ("Ana is my sister.", "Ana moved to Milan.", True),
        ("我女朋友叫小雨。", "小雨换了新工作。", True),
        ("我有个男朋友叫阿强。", "阿强换了个新发型。", True),
        ("I have a dog called Biscuit.", "Biscuit started on a new food this week.", True),  # an animal of theirs
        ("我养了一只猫叫豆豆。", "豆豆最近换了猫粮。", True),
        ("My name is Sam.", "Sam here again, I moved to Leeds.", False),  # the user's own name
        ("My girlfriend is Emma.", "Emma and I broke up.", False),  # the two of them: the user's own
        ("我女朋友叫小雨。", "小雨和我分手了。", False),
        ("My girlfriend is Emma.", "Emma is my girlfriend.", False),  # who she is: the user's fact
        ("My manager is Claire.", "Claire left, so my manager is Hassan now.", False),  # a clause of the user's
        ("我老婆叫小雪。", "小雪换了新工作，去了一家外企。", True),  # several clauses, all hers
        ("My girlfriend is Emma.", "Emma changed jobs, she works at Google now.", True),
        ("我老婆叫小雪。", "小雪辞职了，我们搬回老家了。", False),  # the user comes in after her
        ("My GP is Dr Patel.", "Dr Patel moved to a new surgery, I still see her there.", True),  # back to her
        ("My manager is Claire.", "Claire moved to Sydney, I report to Omar now.", False),  # the user's own clause
        ("我的牙科医生是陈医生。", "陈医生去了新开的诊所，我以后去那边找她。", True),  # of a kind, named; back to her
        ("我的直属领导是周经理。", "周经理调走了，现在我归孙经理管。", False),
        ("My coach is Tom.", "Tom moved gyms, so I train with Ana now.", False),
        ("My girlfriend is Emma.", "Emma got a job abroad, she asked me to come along.", True),  # me: not her clause
        ("I live in Dublin.", "Dublin is home.", False),  # a place, named by no person of the user's
    ],
)
def test_a_person_the_user_named_is_someone_else(old: str, new: str, theirs: bool) -> None:
    assert about_someone_named(old, new) is theirs


@pytest.mark.parametrize(
    ("old", "new", "same"),
    [
        ("My son Theo has a nut allergy.", "Theo, my son, is allergic to nuts.", True),  # a name in common
        ("My sister lives in Rome.", "My sister's home is in Rome.", True),  # the same kin, no two names apart
        ("我女儿叫朵朵。", "朵朵是我女儿。", True),
        ("My sister is a nurse.", "My brother is a nurse.", False),
        ("我姐姐住在北京。", "我妹妹住在北京。", False),
        ("My sister Ana lives in Rome.", "My sister Eva lives in Rome.", False),  # two sisters
        ("我老公在医院上班。", "我先生在医院当护士。", True),  # two words of one relation
        ("我有个三岁的女儿。", "我闺女三岁了。", True),
        ("My mum lives in Leeds.", "My mother moved to Leeds.", True),
        ("我老公在医院上班。", "我儿子在医院上班。", False),
    ],
)
def test_two_statements_about_others_are_about_the_same_one(old: str, new: str, same: bool) -> None:
    assert the_same_person(old, new) is same


@pytest.mark.parametrize(
    ("sentence", "denied"),
    [
        ("我不吃辣", True),
        ("我不过敏", True),
        ("我还没有孩子", True),
        ("别放香菜", True),
        ("I don't drive", True),
        ("现在我特别能吃辣了", False),  # especially
        ("这家店还不错", False),  # good
        ("不过我住在北京", False),  # but
        ("我不得不周末加班", False),  # must
        ("没错，我是老师", False),  # right
        ("别人的猫", False),  # others'
        ("penicillin is a no-go for me", False),  # a compound of "no" is a word of its own
        ("we run a not-for-profit cafe", False),
        ("no-one calls me Liz any more", True),  # but "no-one" is "nobody"
    ],
)
def test_a_denial_is_told_from_words_that_carry_its_character(sentence: str, denied: bool) -> None:
    assert denies(sentence) is denied


@pytest.mark.parametrize(
    ("old", "new", "turned"),
    [
        ("我不吃牛肉。", "我现在也吃牛肉了。", True),
        ("我在杭州工作。", "我回上海工作了，不在杭州了。", True),
        ("I'm vegan.", "I'm not vegan anymore.", True),
        ("我不吃牛肉。", "我也不太吃羊肉。", False),  # both deny
        ("I like jazz.", "I also like classical music.", False),
        ("I'm vegetarian.", "I don't eat meat or fish.", False),  # nothing says it holds now
        ("I eat meat and fish, no restrictions.", "I've gone vegetarian, so no more meat for me.", True),  # by clause
        ("I eat meat and fish, no restrictions.", "I don't go to the gym anymore.", False),  # clauses of other things
        ("我不吃辣。", "在四川待了两年，现在我特别能吃辣了。", True),  # 特别 denies nothing
    ],
)
def test_a_fact_turned_around_is_told_from_one_more(old: str, new: str, turned: bool) -> None:
    assert turns_around(old, new) is turned


@pytest.mark.parametrize(
    ("old", "new", "of_it"),
    [
        ("I drive a Honda Civic.", "I had the Civic's brakes replaced yesterday.", True),
        ("I have a dog called Biscuit.", "We changed Biscuit's food to a grain-free brand.", True),
        ("我开一辆本田雅阁。", "雅阁的雨刮器我刚换了新的。", True),
        ("我的QQ号是 88654321。", "我把QQ的昵称改了。", True),
        ("My girlfriend is called Anna.", "Anna's moving in with me next month.", False),  # "'s" is "is"
        ("I drive a Honda Civic.", "I sold the Civic's old stereo and the Civic too.", False),  # it ended
        ("I drive a Honda Civic.", "My neighbour's car was stolen.", False),  # not a thing of what it names
        ("I work at Google in London.", "I've moved to Google's Zurich office.", False),  # where a move goes
        ("我在百度的地图团队。", "我转到了百度的自动驾驶团队。", False),
        ("我在平安保险上班。", "平安的工作我辞了，现在在招商银行。", False),  # an ending
        ("I use Thunderbird for mail.", "I set Thunderbird to check mail every five minutes.", True),  # itself, set
        ("I use Slack at work.", "I switched the Slack sidebar to compact mode.", True),
        ("我用钉钉。", "我把钉钉设置成了免打扰。", True),
        ("I bank with Monzo.", "I switched from Monzo to Starling.", False),  # replaced
        ("我用的是华为手机。", "我把华为手机换成了小米。", False),  # 换成 replaces
        ("I use Duolingo.", "I reset my Duolingo streak goal.", True),  # a part of it, changed in place
        ("I listen on Tidal.", "I renamed my Tidal running playlist.", True),
        ("I bank with Barclays.", "I changed my Barclays direct debit over to Nationwide.", False),  # where it goes
        ("I drive a Honda Civic.", "switched to winter tyres on the Civic yesterday", True),  # what it got, on it
        ("I use a MacBook Air.", "I changed to dark mode on my MacBook.", True),
        ("I use a MacBook Air.", "I switched to a ThinkPad for work.", False),  # nothing of it
    ],
)
def test_a_change_done_to_a_thing_of_what_the_fact_names(old: str, new: str, of_it: bool) -> None:
    assert done_to_a_thing_of(old, new) is of_it


@pytest.mark.parametrize(
    ("old", "new", "another"),
    [
        ("I play the violin in a community orchestra.", "I got a new bow for my violin.", True),
        ("I run every morning.", "I bought new running shoes.", True),
        ("我住在西安。", "我们小区换了新物业。", True),
        ("我每周六去爬山。", "我新买了一根登山杖。", True),
        ("我在顺丰当快递员。", "我负责的片区换成了城东。", True),
        ("I work at Tesco.", "I got a new job.", False),  # one of the user's own facts
        ("I drive a Honda Civic.", "I bought a new car.", False),
        ("我在腾讯工作。", "我换了份新工作。", False),
        ("我的手机号是 13512345678。", "我的手机号换了。", False),
        ("I use a Garmin watch for running.", "I got a new watch.", False),  # the thing the fact names
        ("I run every morning.", "I moved to Leeds.", False),  # nothing new got
        ("I work from home.", "We moved the weekly standup to Thursdays.", True),  # its values are the thing's
        ("I do yoga on Fridays.", "I moved my yoga class to Sundays.", False),  # the thing the fact names
        ("I drive a Honda Civic.", "I bought a new Tesla.", False),  # a name: maybe a new value
        ("I live in Leeds.", "We changed energy supplier to Octopus.", True),
        ("我住在杭州。", "我们家宽带换成了电信。", True),
        ("我住在武汉光谷。", "我家门口的地铁站换了新名字。", True),  # the station's name, not the user's
        ("I work at Google.", "I changed jobs last month.", False),
        ("我在招商银行办的工资卡。", "招行的APP又改版了。", True),  # the app's, and its "again"
        ("I take sertraline every day.", "My GP switched me from sertraline to citalopram.", False),  # "me"
        ("I'm vegan.", "My local vegan cafe moved to a bigger place.", True),  # the thing it opens with
        ("I work at Siemens.", "My company moved to Leeds.", False),  # one of the user's own facts
        ("我住在青岛。", "我们家换了宽带，现在用电信的。", True),  # what the household changed, named after the verb
        ("我住在青岛。", "我们家换了房子，搬到崂山了。", False),
        ("I live in Leeds.", "We've just moved down to Bristol.", False),
        ("我每天游泳。", "我买了一顶新泳帽。", True),
        ("我每天骑车上班。", "我买了个新gps，装在车把上。", True),  # a thing in Latin letters
        ("我在比亚迪上班。", "比亚迪又换了新logo。", True),  # "again": once more, not what holds now
        ("I'm a teacher at a primary school.", "I've been given a new class this year.", True),
        ("I work at Tesco.", "I've been given a new role in logistics.", False),  # one of the user's own facts
        ("我用安卓手机。", "我换了新iPhone。", False),  # a name: maybe a new value
        ("我住在武汉。", "我家门口的地铁站换了名字。", True),
        ("I commute by train.", "I got a new e-bike and ride to work now.", False),  # what holds now
        ("I use Trello at work.", "Trello changed its colours again, so ugly.", True),  # once more, not now
        ("I'm married to Ana.", "Ana and I swapped chairs at dinner, she likes the window now.", True),  # hers
        ("I live in Derby.", "I'm changing buses at Derby on the way to Leeds.", True),
        ("I live in Derby.", "I'm changing jobs, I start at Rolls-Royce in May.", False),  # a fact of one's own
        ("I use a Samsung.", "I got a new phone case, bright green.", True),  # its head is a case, not a phone
        ("I use a Samsung.", "I got a new phone, a Pixel.", False),
        ("我开的是一辆比亚迪。", "我换了个车载香薰。", True),  # what goes with the car
        ("我用小米手机。", "我换了个华为。", False),  # a bare name may be a new value
        ("我开的是一辆比亚迪。", "我换了辆车。", False),
        ("I play guitar in a band.", "Our drummer quit, so we're auditioning.", True),  # the person it opens with
        ("I live in London.", "My wife and I left London for Leeds.", False),  # the user too
        ("I'm married to Anna.", "My wife left.", False),  # one of the user's own facts
        ("我是Java程序员。", "我们项目从Maven换成Gradle了。", True),  # a thing of ours, with no 的
        ("我住在郑州。", "我们全家从郑州搬到洛阳了。", False),  # the household is the user
        ("我住在郑州。", "我们上个月从郑州搬到洛阳了。", False),  # when, not what
    ],
)
def test_a_change_of_another_thing_of_the_users_life(old: str, new: str, another: bool) -> None:
    assert changes_another_thing(old, new) is another


@pytest.mark.parametrize(
    ("old", "new", "within"),
    [
        ("I'm a software developer at Shopify.", "I switched from the payments team to the checkout team.", True),
        ("我在腾讯做产品经理。", "我从微信团队调到了游戏部门。", True),
        ("我在字节跳动做前端开发。", "我被调到了抖音的电商组。", True),
        ("I'm a junior doctor.", "I've just started my rotation in A&E.", True),  # a doctor's rotation
        ("我是医院的住院医师。", "我这周轮转到急诊科了。", True),
        ("I'm on the payments team at Shopify.", "I moved to the checkout team.", False),  # the fact is the team
        ("I work at Google.", "I left Google and joined Meta's AI team.", False),  # an ending
        ("我在腾讯工作。", "我加入了阿里的组织架构调整讨论。", False),  # 组织 is no team
    ],
)
def test_a_move_between_teams_of_one_employer(old: str, new: str, within: bool) -> None:
    assert moves_within(old, new) is within


@pytest.mark.parametrize(
    ("old", "new", "taken_back"),
    [
        ("我不吃猪肉。", "我现在也吃猪肉了。", True),
        ("I don't drink coffee.", "I've started drinking coffee again.", True),
        ("I'm not married.", "I'm married now!", True),
        ("I don't eat meat.", "I'm vegetarian now.", False),  # the same fact in other words
        ("我不吃肉。", "我现在吃素了。", False),
        ("我不吃猪肉。", "我也吃猪肉。", False),  # nothing says it holds now
    ],
)
def test_a_denial_taken_back_in_its_own_words(old: str, new: str, taken_back: bool) -> None:
    assert takes_back_a_denial(old, new) is taken_back


@pytest.mark.parametrize(
    ("old", "new", "renaming", "narrowing"),
    [
        ("I'm a member of the Labour Party.", "I'm not a member of the Labour Party anymore.", set(), set()),
        ("I coach a youth hockey team.", "I don't coach hockey anymore, no time.", set(), set()),  # an aside
        ("Wren is my boyfriend.", "Wren and I aren't together anymore.", set(), set()),  # who is not what
        ("My mobile number is 07700 900456.", "That number doesn't work anymore.", set(), set()),
        ("I'm vegan.", "I'm not strictly vegan anymore.", set(), set()),  # a degree, not a circumstance
        ("I'm a designer at Canva.", "I don't work at Canva anymore.", {"work"}, set()),  # another verb
        ("The user prefers tea.", "The user no longer drinks tea.", {"drink"}, set()),
        ("I work at Lidl on the checkouts.", "I don't work Sundays anymore.", set(), {"sunday"}),
        ("I cycle to the lab.", "I don't cycle in the snow anymore.", set(), {"snow"}),
        ("I take the Jubilee line.", "I don't take the Jubilee line at rush hour anymore.", set(), {"rush", "hour"}),
        ("I drink espresso.", "I don't drink espresso after 4 anymore.", set(), {"4"}),
        ("我是素食者。", "我现在不吃素了。", set(), set()),
        ("我和女朋友住在一起。", "我们已经不住在一起了。", set(), set()),
        ("我每天晚上散步。", "做完手术以后我就不散步了。", set(), set()),  # why, before the subject
        ("我每天骑车上学。", "下雪天我就不骑了。", set(), {"下雪", "雪天"}),  # when, before the subject
        ("我每周去打羽毛球。", "我现在不去室内馆打了。", set(), {"室内馆"}),
        ("我开车上班。", "我晚上不开车了。", set(), {"晚上"}),  # told whole, though "上" is in the fact
    ],
)
def test_what_a_denial_in_the_facts_own_words_adds_to_it(
    old: str, new: str, renaming: set[str], narrowing: set[str]
) -> None:
    assert what_a_denial_adds(old, new) == (renaming, narrowing)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I don't eat pork.", "I don't eat beef anymore."),  # the older denies already
        ("I quit drinking.", "I don't drink anymore."),  # the older ends already
        ("I'm a nurse.", "I don't do nights anymore."),  # not in the older's words
        ("我是一名护士。", "护士这行不好干。"),  # no change told
        ("I'm vegan.", "I'm not vegan anymore, I started eating eggs."),  # a change told besides
    ],
)
def test_what_is_no_denial_of_a_fact_in_its_words(old: str, new: str) -> None:
    assert what_a_denial_adds(old, new) is None


@pytest.mark.parametrize(
    ("old", "new", "feels"),
    [
        ("I live in Bristol.", "I don't like Bristol anymore.", True),
        ("I'm a teacher.", "I really enjoy teaching.", True),
        ("我在银行做柜员。", "我越来越讨厌这份工作了。", True),
        ("I love hiking.", "I don't enjoy hiking anymore.", False),  # a feeling beside a feeling
        ("我不吃辣。", "我喜欢吃辣。", False),  # beside a denial: a contradiction, maybe
        ("I live in Bristol.", "I moved to Bath.", False),
    ],
)
def test_a_feeling_beside_what_holds(old: str, new: str, feels: bool) -> None:
    assert feels_about_what_holds(old, new) is feels


@pytest.mark.parametrize(
    ("old", "new", "its_own"),
    [
        ("I bank with Santander.", "Santander changed their app again, so annoying.", True),
        ("I live in Leeds.", "Leeds is lovely in spring.", True),
        ("I work at Spotify.", "Spotify laid me off.", False),  # the user in it
        ("I bank with Santander.", "Santander is my bank.", False),
        ("I bank with Santander.", "Barclays changed their app.", False),  # a name the fact does not
    ],
)
def test_what_a_fact_names_is_news_of_its_own_when_the_user_is_not_in_it(old: str, new: str, its_own: bool) -> None:
    assert about_what_it_names(old, new) is its_own


@pytest.mark.parametrize(
    ("sentence", "role"),
    [
        (
            "As a paramedic I see a lot of car accidents.",
            ("I'm a paramedic", "I see a lot of car accidents.", "As a paramedic"),
        ),
        (
            "as a night-shift baker, my sleep is a mess",
            ("I'm a night-shift baker", "my sleep is a mess", "as a night-shift baker"),
        ),
        ("作为一名程序员，我每天都对着电脑。", ("我是一名程序员", "我每天都对着电脑。", "作为一名程序员")),
        ("身为老师我很少有空", ("我是老师", "我很少有空", "身为老师")),
        ("As a nurse working nights", ("I'm a nurse working nights", "", "As a nurse working nights")),  # alone
        ("As a kid I used to collect stamps.", None),  # a past
        ("As you know, I'm vegan.", None),  # no role
        ("As a kid, my brother was a pain.", None),  # not the user's
        ("As a result, the trip was off.", None),  # more follows, not the user's
        ("I work as a nurse.", None),  # a role stated, not spoken in
    ],
)
def test_the_role_a_statement_is_said_in(sentence: str, role: tuple[str, str, str] | None) -> None:
    assert as_a_role(sentence) == role


@pytest.mark.parametrize(
    ("memory", "role", "named"),
    [
        ("I work as a paramedic in Leeds.", "I'm a senior paramedic", True),
        ("我是程序员。", "我是一名程序员", True),
        ("我是中学老师。", "我是家长", False),  # two roles the vectors read as one
        ("I'm a teacher.", "I'm a parent", False),
    ],
)
def test_a_role_is_said_again_only_in_a_word_the_memory_has(memory: str, role: str, named: bool) -> None:
    assert a_role_it_names(memory, role) is named


def test_being_used_to_something_is_no_past() -> None:
    assert not in_the_past("I'm used to working weekends.")
    assert in_the_past("I used to work weekends.")


@pytest.mark.parametrize(
    ("old", "new", "its_part"),
    [
        ("I read on a Kindle.", "I set the Kindle font to Bookerly.", True),
        ("I use Chrome.", "I changed the Chrome theme to Dracula.", True),
        ("我用微信。", "我把微信的字体调成大号了。", True),
        ("I use Chrome.", "I switched from Chrome to Firefox.", False),  # the thing replaced
        ("I'm with EE.", "I switched my EE contract to Three.", False),  # switched: maybe elsewhere
        ("I use Chrome.", "I changed the Safari theme to dark.", False),  # a part of another thing
        ("I work at Amazon.", "I changed my Amazon delivery address to my office.", True),  # two words
        ("I use a MacBook Pro.", "I changed the keyboard layout on my Mac to Dvorak.", True),  # the part, then whose
        ("I drive a Golf.", "I set the radio in the Golf to Radio 4.", True),
        ("I live in Leeds.", "I changed the address on my Amazon account to York.", False),  # not what it names
    ],
)
def test_a_part_of_a_named_thing_set_to_a_value(old: str, new: str, its_part: bool) -> None:
    assert sets_a_part_of(old, new) is its_part


@pytest.mark.parametrize(
    ("old", "new", "another_thing"),
    [
        ("I'm gluten-free.", "I switched to a gluten-free bakery down the road.", True),
        ("I live in Bath.", "I switched to a standing desk.", True),
        ("I live on a narrowboat.", "I switched to a cheaper marina a few miles on", True),  # where it ends
        ("I'm lactose intolerant.", "I switched to soy milk in my porridge.", True),  # kept to one use
        ("I'm coeliac.", "I switched to a cheaper brand of gluten-free pasta, just as good", True),  # its head
        ("I use Chrome.", "I switched to a fork of Firefox.", False),  # of a name: maybe the new value
        ("我不吃糖。", "我茶里改放蜂蜜了", True),
        ("I take sugar in my tea.", "I switched to honey in my tea.", False),  # the use the fact names
        ("我对花生过敏。", "我换了一款花生酱替代品，是杏仁做的", False),  # a product's measure word: maybe a brand
        ("我的邮箱是 li@qq.com。", "我换了个邮箱客户端，用着顺手多了", True),
        ("我在读高二。", "我换了个同桌，人挺好", True),
        ("I'm on a keto diet.", "I switched to a paleo diet.", False),  # the head is what the fact names
        ("I eat meat.", "I switched to a plant-based diet.", False),  # a fact of the user's own
        ("I use Windows.", "I switched to a Mac.", False),  # a name may be the new value
        ("我的邮箱是 li@qq.com。", "我换了个新邮箱", False),
        ("我在一家银行上班。", "银行倒闭了，我换了一家保险公司", False),  # an ending
        ("I use Fedora.", "I changed my keyboard layout to Dvorak.", True),  # a value of another thing
        ("I'm with Vodafone.", "I switched my mobile contract to Giffgaff.", False),  # a fact of the user's own
        ("I'm with Vodafone.", "I switched my Vodafone plan to unlimited data.", False),  # a name: maybe its own
        ("I live in Leeds.", "we switched energy supplier to Octopus", True),  # no determiner
        ("I bank with Barclays.", "I switched banks to Monzo.", False),  # the head is what the fact names
        ("我是前端工程师。", "组里把构建工具从webpack换成vite了。", True),  # what is put in place shares nothing
        ("I read a lot.", "I replaced my Kindle with a Kobo.", True),
        ("I bank with Monzo.", "I swapped my Monzo account for Starling.", False),  # a word of the fact
        ("我用小米手机。", "我把手机从小米换成苹果了。", False),
    ],
)
def test_a_switch_to_a_thing_of_another_kind(old: str, new: str, another_thing: bool) -> None:
    assert switches_to_another_thing(old, new) is another_thing


@pytest.mark.parametrize(
    ("old", "new", "agrees"),
    [
        ("I quit smoking last year.", "Eight months smoke-free now.", True),  # an end, and how long it has held
        ("我戒烟了。", "我已经一年没抽烟了。", True),
        ("I split up with Tom.", "I'm not seeing anyone these days.", True),
        ("I don't drink.", "Two months without a proper night out, I need one.", True),  # abstaining beside a denial
        ("I quit smoking last year.", "I've started smoking again.", False),  # begun again
        ("我戒烟了。", "最近压力大，又抽上了。", False),
        ("I don't drink.", "I don't go out much.", False),  # a denial beside a denial: not an end
        ("I smoke.", "Six weeks smoke-free!", False),  # the end of what held
    ],
)
def test_an_end_or_a_denial_said_again_agrees(old: str, new: str, agrees: bool) -> None:
    assert agrees_in_ending(old, new) is agrees


@pytest.mark.parametrize(
    ("old", "new", "another"),
    [
        ("我是老师。", "我三个星期没休息了。", True),
        ("I'm a nurse.", "I haven't had a holiday in ages.", True),
        ("I'm a teacher.", "I'm not teaching anymore.", False),  # an end told
        ("我男朋友叫阿杰。", "我们已经不在一起了。", False),  # the words of a change since
        ("I'm a smoker.", "Not one cigarette since March!", False),
        ("我开车上班。", "我现在不开车了。", False),  # in the fact's words
        ("I don't eat meat.", "I don't eat fish either.", False),  # the fact denies too
    ],
)
def test_a_denial_of_what_the_fact_does_not_name(old: str, new: str, another: bool) -> None:
    assert denies_another_thing(old, new) is another


@pytest.mark.parametrize(
    ("text", "long"),
    [
        ("I've been teetotal for decades.", True),
        ("Swimming has been my thing since I was a kid.", True),
        ("我一直在用安卓手机", True),
        ("我当老师好多年了", True),
        ("I moved to Derby and have lived here for years now.", False),  # a change told
        ("I've been a nurse for two months.", False),
        ("Cardiff has been home for ten years now.", True),  # years counted
        ("I've been vegan for over 3 years.", True),
        ("我来上海五年了", True),
        ("I've had this job for a year.", False),
    ],
)
def test_what_has_held_for_long(text: str, long: bool) -> None:
    assert held_for_long(text) is long


@pytest.mark.parametrize(
    ("old", "new", "news"),
    [
        ("我平时用飞书办公。", "飞书又出了个新功能。", True),
        ("我是湖人球迷。", "湖人队换了新队徽。", True),
        ("我开的是本田雅阁。", "雅阁的新款出来了。", True),
        ("我开的是本田雅阁。", "雅阁卖了，现在开电车。", False),  # an ending, and what holds now
        ("我每周二游泳。", "游泳改到周六了。", False),  # when: a habit's change
        ("我的微信号是 abc_123。", "微信号换成 xyz_789 了。", False),  # a new address
        ("我用飞书办公。", "我们公司的飞书又改版了。", False),  # the user in it
        ("I use Slack at work.", "Slack changed its logo.", False),  # English names with a capital
        ("我在招商银行开的户。", "招行App又改版了。", True),  # 招行 abbreviates 招商银行
        ("我在招商银行开的户。", "招聘会又改期了。", False),  # 招聘 abbreviates nothing it names
        ("我在阿里上班。", "阿里最近又在裁员，人心惶惶。", True),  # the employer lays staff off, not the user
    ],
)
def test_news_of_what_a_chinese_fact_names_opens_with_it(old: str, new: str, news: bool) -> None:
    assert news_of_what_it_names(old, new) is news


@pytest.mark.parametrize(
    ("text", "alone"),
    [
        ("要是明天不下雨，我就去爬山。", ["要是明天不下雨"]),  # the consequence of a condition
        ("If it's sunny tomorrow, I'll go hiking.", ["If it's sunny tomorrow"]),
        ("要是当初学了医，我现在可能是医生。", ["要是当初学了医"]),
        (
            "If you're drafting emails, I sign off as Dr. Patel.",
            ["If you're drafting emails", "I sign off as Dr. Patel."],
        ),
        ("要是你帮我写邮件，落款写我的英文名就行。", ["要是你帮我写邮件", "落款写我的英文名就行。"]),  # "that will do"
        ("今天太热了，不想出门。", ["今天太热了"]),  # goes on about the day, naming nobody
        ("I'm so tired today, can't be bothered to cook.", ["I'm so tired today"]),
        ("I'm exhausted today, I have a newborn at home.", ["I'm exhausted today", "I have a newborn at home."]),
        ("Claire left, so my manager is Hassan now.", ["Claire left", "My manager is Hassan now."]),
        ("这周先别排会，我周三下午都要去医院透析。", ["这周先别排会", "我周三下午都要去医院透析。"]),  # a stretch
        ("I'm in Lisbon until Friday, back to work after.", ["I'm in Lisbon until Friday"]),  # naming nobody
        # "We" after someone else's news takes that person in: the clause stays with theirs.
        (
            "My cousin got a job at my firm, so now we're colleagues.",
            ["My cousin got a job at my firm, now we're colleagues."],
        ),
        ("我表哥搬到我们小区了，我们现在是邻居", ["我表哥搬到我们小区了, 我们现在是邻居"]),
        ("Claire left, we hired two people since.", ["Claire left", "we hired two people since."]),  # no news of hers
        # So does a clause that names nobody after another's: it goes on about them ("在华为上班" is the brother's).
        ("我弟弟也来深圳了，在华为上班", ["我弟弟也来深圳了, 在华为上班"]),
        ("My neighbour got a puppy, Max is so excited.", ["My neighbour got a puppy, Max is so excited."]),
        ("My brother lives in Leeds, works at Asda.", ["My brother lives in Leeds, works at Asda."]),
        ("My sister is a nurse, same hospital as me.", ["My sister is a nurse", "same hospital as me."]),  # the user's
        # After a thing's change, a clause with no subject of the user's goes on about that thing.
        ("我们家换了宽带，现在用电信的", ["我们家换了宽带, 现在用电信的"]),
        ("我们家换了宽带，我现在在家办公", ["我们家换了宽带", "我现在在家办公"]),
        # So does one after what was done to a thing: the colour is the bedroom's, not where the user lives.
        ("我把卧室重新刷了一遍漆，换成了浅灰色", ["我把卧室重新刷了一遍漆, 换成了浅灰色"]),
        (
            "I moved my desk into the spare room, much better light",
            ["I moved my desk into the spare room, much better light"],
        ),
        ("我把车卖了，我现在骑电动车上班", ["我把车卖了", "我现在骑电动车上班"]),
        # A clause that names the present as its time is out of the moment's frame; one of the moment is not.
        ("今天升职了，现在是部门主管了", ["今天升职了", "现在是部门主管了"]),
        ("Got the keys today, so it's home now.", ["Got the keys today", "It's home now."]),
        ("今天好累，现在只想睡觉", ["今天好累"]),  # what one wants at the moment
        ("I'm shattered today, need a nap right now.", ["I'm shattered today"]),
    ],
)
def test_a_condition_or_a_moment_frames_the_clauses_after_it(text: str, alone: list[str]) -> None:
    assert clauses_alone(text) == alone


def test_a_stretch_that_ends_soon_frames_part_of_a_statement() -> None:
    assert framed("这周帮我排一下日程吧，我每天早上要送孩子上学。")
    assert not framed("我每天早上要送孩子上学。")


@pytest.mark.parametrize(
    ("old", "new", "ends"),
    [
        ("I'm going out with a girl called Zoe.", "Zoe dumped me last week.", True),
        ("I'm seeing a guy called Tom.", "Tom and I went our separate ways.", True),
        ("My girlfriend is Leah.", "I broke it off with Leah.", True),
        ("I drive a Ford Focus.", "I sold the Focus and bought a Kia.", True),
        ("我老婆叫李娜。", "我和李娜去年离了。", True),
        ("My boyfriend is called Ravi.", "Ravi and I ended things over Christmas.", True),
        ("我男朋友叫子豪。", "我跟子豪分开了。", True),
        ("My car is a Honda Jazz.", "Traded the Jazz in for an Ioniq last week.", True),  # traded for another
        ("I run Arch Linux on my laptop.", "I swapped Arch for Fedora last month.", True),
        ("I use Notion for notes.", "I gave up on Notion, it got too slow.", True),
        ("I drive a Honda Jazz.", "I swapped the Jazz's tyres for winter ones.", False),  # a thing of it
        ("I'm seeing a guy called Tom.", "I left my coat at Tom's.", False),  # what ended is not Tom
        ("I'm seeing a guy called Tom.", "Tom and I went to Rome.", False),  # no ending
        ("I'm married to Sophie.", "Sophie and I left the party early.", False),  # the two left a third thing
        ("My wife is called Ana.", "Ana and I sold the flat in Porto.", False),
        ("I'm married to Tom.", "Tom and I got divorced this year.", True),
        ("My girlfriend is Emma.", "Emma quit her job.", False),  # her ending, not the two of them
        ("I bank with Nationwide.", "I closed my Nationwide account and bank with Starling now.", True),
        ("I use Netflix.", "I cancelled Netflix last week.", True),
        ("I use Netflix.", "Netflix cancelled my favourite show.", False),  # not the user's ending
    ],
)
def test_an_ending_of_what_a_fact_names_by_its_name(old: str, new: str, ends: bool) -> None:
    assert ends_what_it_names(old, new) is ends


def test_what_a_named_person_does_to_the_user_is_the_users_own() -> None:
    assert not about_someone_named("I'm going out with a girl called Zoe.", "Zoe dumped me last week.")
    assert about_someone_named("My girlfriend is Emma.", "Emma changed her hair colour.")


@pytest.mark.parametrize(
    ("old", "new", "may"),
    [
        ("I live in Leeds.", "I'm in York now.", True),  # the aspect of a change
        ("I'm a nurse.", "I was promoted to ward sister.", True),  # done
        ("I'm a nurse.", "I quit nursing.", True),
        ("I eat everything.", "I don't eat pork.", True),  # the other way round
        ("我住在宁波。", "我们年初搬回了温州老家。", True),  # the 了 of something done
        ("我单身。", "我谈恋爱了。", True),
        ("I'm a nurse.", "I'm on nights this month.", False),  # a circumstance, nothing done or become
        ("My email is kim@fastmail.com.", "I set up a filter in my fastmail inbox.", False),
        ("Dairy doesn't agree with me.", "No milk in the recipes please, dairy wrecks my stomach.", False),
        ("我在小学当老师。", "这周要监考，很忙。", False),
        ("I have type 2 diabetes.", "I had my annual diabetes review last week.", False),  # an episode
        ("我有二型糖尿病。", "我上个月去医院复查了。", False),
        ("我有女朋友，叫晓婷。", "我跟晓婷分了，上周的事。", True),  # an ending of what it names, whenever
        ("I'm vegetarian.", "I've been eating fish again since last month.", True),  # a word of a change
        ("I'm learning the piano.", "I passed my piano exam.", False),  # an event of a life, in the simple past
        ("I eat anything.", "I went vegan in January.", True),  # a change of state
        ("I'm a student nurse.", "I qualified as a nurse in September.", True),
        ("I work full-time.", "I've gone part-time.", True),  # the perfect: what holds since
        ("我在学游泳。", "我终于学会换气了。", False),  # a task done: its 了 completes it
        ("我养了一条柯基。", "我家柯基打完疫苗了。", False),
        ("我在健身减肥。", "我这个月瘦了三斤。", False),  # an amount of an event
        ("我住在宁波。", "我搬完家了。", True),  # a task done that is a change
        ("我住在杭州。", "五一我回了趟老家。", False),  # a trip: an amount of an event
        ("我在读药学专业。", "我第二阶段的实习结束了。", False),  # one of a series
        ("我在学开车。", "我第一次上路练车了。", False),
        ("我在药店上班。", "今天是我在医院上班的第一天。", True),  # a first day begins what lasts
        ("我是护士。", "最近太忙了。", False),  # a degree exclaimed: no new situation
        ("我住在苏州。", "苏州的地铁太挤了。", False),
        ("我住在苏州。", "我搬到无锡了。", True),
    ],
)
def test_what_may_tell_a_change_at_all(old: str, new: str, may: bool) -> None:
    assert may_tell_a_change(old, new) is may


def test_a_name_and_what_it_is_to_the_user_are_one_clause() -> None:
    assert clauses("Ollie, my four-year-old, is obsessed with dinosaurs") == [
        "Ollie is my four-year-old",
        "is obsessed with dinosaurs",
    ]
    assert clauses("Claire left, so my manager is Hassan now") == ["Claire left", "My manager is Hassan now"]


def test_an_ask_opened_with_a_conjunction_is_a_clause_of_its_own() -> None:
    assert clauses("I'm coeliac so can you check the menu?") == ["I'm coeliac", "Can you check the menu?"]


def test_so_before_a_subject_parts_clauses_chat_writes_without_a_comma() -> None:
    assert clauses("I'm coeliac so I check every menu") == ["I'm coeliac", "I check every menu"]
    assert clauses("I'm asthmatic so the gym air con gets me") == ["I'm asthmatic", "The gym air con gets me"]
    assert clauses("I got an offer in Leeds and so we moved") == ["I got an offer in Leeds", "We moved"]
    # "so" of degree or purpose parts nothing
    assert clauses("I love my job so much") == []
    assert clauses("I saved up so that I could travel") == []
    assert clauses("I'm so tired of my commute") == []


def test_a_statement_without_one_of_its_clauses() -> None:
    assert without_clause("Nuts are dangerous for me, I carry an EpiPen.", "Nuts are dangerous for me") == (
        "I carry an EpiPen."
    )
    assert without_clause("我是写代码的，天天对着电脑", "我是写代码的") == "天天对着电脑"
    assert without_clause("I'm a nurse, I work nights, I love it.", "I work nights") == "I'm a nurse, I love it."
    assert without_clause("I'm a nurse.", "I'm a nurse.") is None  # one clause: nothing else
    # a clause's fact without its reason: the reason goes on as a statement
    assert without_clause("I don't eat pork because I'm Muslim", "I don't eat pork") == "I'm Muslim"
    assert without_clause("I'm a nurse, I work nights cause I like it", "I work nights") == "I'm a nurse, I like it"


@pytest.mark.parametrize(
    ("clause", "core"),
    [
        ("I don't run anymore cause my doctor told me to stop", "I don't run anymore"),
        ("I quit because the commute was killing me", "I quit"),
        ("I've switched to oat milk, because dairy upsets me", "I've switched to oat milk"),
        ("I've lived here since 2019", "I've lived here since 2019"),  # a time, not a reason
        ("Because of you", "Because of you"),  # nothing left before it
    ],
)
def test_a_clause_loses_the_reason_it_gives_after_its_fact(clause: str, core: str) -> None:
    assert without_reason(clause) == core


@pytest.mark.parametrize(
    ("clause", "ask"),
    [
        ("let's do a risotto instead", True),  # a proposal
        ("咱们周末去爬山吧", True),
        ("can you suggest a dessert", True),
        ("帮我看看这个", True),
        ("I'm in York now", False),
        ("我现在住在上海", False),
        ("我们搬到上海了", False),
        # A task asked about one thing: what it names is the thing's.
        ("in the draft, change the sender to support@example.com please", True),
        ("Move the 3pm to Thursday", True),
        ("change my email to kim@example.org", False),  # the user's own
        ("Lessons learned: write the rollback plan before the release.", False),  # a lesson, not asked of anyone
    ],
)
def test_a_clause_that_asks_or_proposes(clause: str, ask: bool) -> None:
    assert asks(clause) is ask


@pytest.mark.parametrize(
    ("text", "now"),
    [
        ("我们搬到上海了", True),  # the 了 of a new situation
        ("更新一下：搬家后我在太平洋时区了。", True),
        ("I'm vegan now", True),
        ("我不打算换银行，太麻烦了", False),  # a degree exclaimed
        ("这个会开得太久了。", False),
        ("明锐快要年检了", False),  # what is near
        ("家里两个娃，每天忙死了", False),  # a degree, by 死 after how one feels
        ("我的猫死了", True),
        ("电脑坏了", True),
        ("我一点辣都吃不了", False),  # what cannot be done
    ],
)
def test_what_says_it_holds_now(text: str, now: bool) -> None:
    assert holds_now(text) is now


@pytest.mark.parametrize(
    ("text", "denied"),
    [
        ("I'm not switching banks after all.", True),
        ("We never changed our broadband provider.", True),
        ("I didn't end up moving to Hove.", True),
        ("我最后没搬去杭州。", True),
        ("I'm not a barista anymore.", False),  # "anymore" is the aspect of an end, not a change denied
        ("I stopped eating meat.", False),
        ("I'm not vegan anymore, I started eating eggs.", False),  # one change is not denied
        ("我不再吃素了。", False),
    ],
)
def test_a_change_denied(text: str, denied: bool) -> None:
    assert denies_a_change(text) is denied


@pytest.mark.parametrize(
    ("text", "a_while"),
    [
        ("I'm at my brother's in Hull until Saturday.", True),
        ("For the next three weeks I'm working from the Oslo office.", True),
        ("The buses are on strike, so I'm walking to work this week.", True),
        ("I'm sticking with the old router for now.", True),
        ("我这两天住在表哥家。", True),
        ("空调坏了，这周先在客厅睡。", True),  # what follows the breakdown is bounded
        ("我暂时在家办公。", True),
        ("We keep backups for 30 days.", False),  # a rule, not the user's present state
        ("I repainted the hall over the weekend.", False),  # an event, dated
        ("I've lived in Hull for two weeks.", False),  # it has lasted that long: no bound
        ("I moved to Hull this week.", False),  # a change, dated
        ("The deadline is this Friday.", False),
        ("报告这周五交。", False),  # a day, not a stretch
        ("我这个月搬到了苏州。", False),
    ],
)
def test_what_holds_for_a_while_only(text: str, a_while: bool) -> None:
    assert for_a_while(text) is a_while


@pytest.mark.parametrize(
    ("text", "episode"),
    [
        ("I had a second interview at Arup on Thursday.", True),  # a day, a verb in the past
        ("We spent a night in Whitby at the weekend.", True),
        ("I sat in on a Rust meetup last week.", True),
        ("周六去宜家逛了一圈。", True),
        ("上周末我去南京看了场球。", True),
        ("I start at Arup on Monday.", False),  # no past: what is coming
        ("I go swimming on Mondays.", False),  # a routine
        ("I moved to Whitby at the weekend.", False),  # a change, dated
        ("Last Friday was my final day at Arup.", False),  # an ending, dated
        ("We got the keys to our new flat on Saturday.", False),  # a move, told by its keys
        ("下周三去南京出差。", False),  # next week's
        ("I work in Whitby now.", False),
    ],
)
def test_an_episode_of_a_life(text: str, episode: bool) -> None:
    assert an_episode(text) is episode


@pytest.mark.parametrize(
    ("clause", "apposition"),
    [
        ("an iPhone 15", True),  # of "bought my mum a new phone for her birthday, an iPhone 15"
        ("a Toyota Yaris.", True),
        ("a serious one.", True),
        ("a local bakery hired me.", False),  # a statement of its own
        ("a wasp sting could send me to hospital", False),
        ("the user joined BT.", False),
    ],
)
def test_a_name_put_after_a_clause_is_no_statement_of_its_own(clause: str, apposition: bool) -> None:
    assert an_apposition(clause) is apposition


@pytest.mark.parametrize(
    ("text", "own"),
    [
        ("the Vespa is sold, I cycle everywhere these days", ["I cycle everywhere these days"]),
        (
            "the new house is finally ours, we got the keys on Friday and moved everything over",
            ["we got the keys on Friday and moved everything over"],
        ),
        ("my firm shut the Leeds office, so I'm working from home now", ["I'm working from home now"]),
        ("they put me on days, so I work 7 to 3 now", ["I work 7 to 3 now"]),
        ("我们公司搬到了浦东，我现在每天坐地铁上班", ["我现在每天坐地铁上班"]),
        ("I'm driving a Kia now, the Focus is gone", []),  # the user's first: the user's own statement as a whole
        ("My sister moved to Berlin, we miss her a lot", []),  # about her too
        ("Dr Shah moved to a new surgery, I see her there now", []),
        ("张医生调到别的医院了，我以后去那边找她", []),
        ("My brother got a dog, my niece is thrilled", []),  # nobody of the user's own
        ("My brother got a new job in Leeds.", []),  # one clause
    ],
)
def test_what_the_user_says_of_themselves_after_another(text: str, own: list[str]) -> None:
    assert the_users_own_after_another(text) == own


@pytest.mark.parametrize(
    ("old", "new", "held"),
    [
        ("I'm vegetarian.", "I've been vegetarian since 2015.", True),
        ("I work at Arup.", "I've been at Arup since the spring.", True),
        ("I'm a nurse.", "I've been a nurse since the start of 2019.", True),
        ("I'm a nurse.", "I've been a nurse for 15 years.", True),
        ("我住在杭州。", "我在杭州住了五年了。", True),
        ("I work days.", "I've been working nights since March.", False),  # a state the fact does not name
        ("I smoke.", "I haven't smoked since March.", False),  # a denial
        ("I live in Oslo.", "I've lived in Bergen since I moved in June.", False),  # a change told
        ("I live in Oslo.", "I live in Oslo.", False),  # no since
    ],
)
def test_what_has_held_since_a_time_in_the_facts_own_words(old: str, new: str, held: bool) -> None:
    assert held_since(old, new) is held


@pytest.mark.parametrize(
    ("old", "new", "follows"),
    [
        ("I live in Edinburgh.", "My brother just moved to Edinburgh, so we're neighbours now.", True),
        ("我住在杭州。", "我妹妹搬到杭州了，我们成了邻居。", True),
        ("I work at Deloitte.", "My wife got a job at Deloitte, so we commute together now.", True),
        ("I ride a Brompton to the office.", "The Brompton got nicked, so I take the bus now.", False),  # no person
        ("我住在上海。", "我老公换了工作，我们搬到了杭州。", False),  # not to what the memory names
        ("I live in Edinburgh.", "My brother lives in Edinburgh, we're neighbours.", False),  # no move
        ("I live in Edinburgh.", "My brother just moved to Edinburgh.", False),  # one clause: nothing follows
    ],
)
def test_what_follows_another_persons_move_to_what_a_memory_names(old: str, new: str, follows: bool) -> None:
    assert follows_anothers_move_to(old, new) is follows


@pytest.mark.parametrize(
    ("sentence", "taken"),
    [
        ("Here in Bristol it's been raining for days", ["I live in Bristol"]),
        ("it's blowing a gale down here in Brighton", ["I live in Brighton"]),
        ("my son Arlo has his first swimming lesson tomorrow", ["Arlo is my son"]),
        ("my best friend Sam, who lives in Leeds, is visiting", ["Sam is my best friend"]),
        ("my brother's wife Anna is lovely", []),  # his wife, not the user's
        ("my friend said hi", []),  # no name
        ("here in the office it's cold", []),  # no place named
        ("my two cats are fighting over the sofa again", ["I have two cats"]),
        ("My 3 kids are off school this week", ["I have 3 kids"]),
        ("我家两只猫今天又打架了", ["我有两只猫"]),
        ("my two colleagues are off sick", []),  # neither a child nor an animal
    ],
)
def test_what_a_sentence_takes_for_granted_of_the_user(sentence: str, taken: list[str]) -> None:
    assert presupposed(sentence) == taken


@pytest.mark.parametrize(
    ("text", "updates"),
    [
        ("my phone just updated to Android 14 overnight", True),
        ("I updated my laptop to Windows 11.", True),
        ("我手机升级到 iOS 18 了", True),
        ("手机系统更新到鸿蒙4了", True),
        ("I upgraded to an iPhone 16.", False),  # what the user upgrades to may be a new thing
        ("I upgraded my phone to an iPhone 16.", False),
        ("我升级到iPhone 16了", False),
        ("my manager got upgraded to director", False),  # people are upgraded; things update
    ],
)
def test_a_thing_brought_to_a_new_version(text: str, updates: bool) -> None:
    assert updates_a_thing(text) is updates


@pytest.mark.parametrize(
    ("sentence", "kinds"),
    [
        ("I changed my number last week.", {"phone"}),
        ("My old email is dead, use the new one.", {"email"}),
        ("Got a new mobile number yesterday.", {"phone"}),
        ("我换号了", {"phone"}),
        ("手机号换了，回头发你", {"phone"}),
        ("邮箱不用了", {"email"}),
        ("我换了新的微信号", {"handle"}),
        ("I changed the signature on my emails.", set()),  # a part of it
        ("I changed my email password.", set()),
        ("I dropped my phone and got a new one.", set()),  # the device
        ("我手机屏幕摔碎了，换了个屏", set()),
        ("我换了个邮箱客户端，用 Spark 了", set()),
        ("我3号换了工位", set()),  # a day of the month
    ],
)
def test_a_contact_changed_is_told_by_its_kind(sentence: str, kinds: set[str]) -> None:
    assert changes_a_contact(sentence) == kinds
