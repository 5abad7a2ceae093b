"""Write the labelled pairs the relation model is trained on (``memgw/consolidator/pairs.jsonl``).

Each pair is an older statement of the user and a newer one, labelled by what the newer one does to
the older:

- ``same``: it says the same fact again, in other words;
- ``change``: it gives a new value of the same single-valued attribute (or takes the old one back);
- ``other``: both can stand (another fact, an addition to a many-valued one).

Another person's statement, a hypothetical or a past is never asked about (``structure.py`` keeps it
from the model), so none is here: "If I moved to Leeds" and "I moved to Leeds" differ in a word the
model need not learn.

The pairs are composed from phrasings of each attribute and values, so that every phrasing meets
every other with the same value and with another one; hand-written pairs add facts whose value is not
a name (a diet, a relationship, a preference). These are the ``core`` set. The ``broad`` set adds a life
told as events (a partner, a diet, a job's duties) and facts said again in words that share little; only
the network of ``relation.py`` learns from it. None of the development set's values or sentences
(``bench/formation/dev.jsonl``) is used. Deterministic: the same file every run.

Run: `uv run python bench/formation/make_pairs.py`
"""

from __future__ import annotations

import itertools
import json
import random
from importlib import resources
from pathlib import Path
from typing import Any

SAME, CHANGE, OTHER = "same", "change", "other"
CORE, BROAD = "core", "broad"  # the sets of ``relation.py``'s two models

# attribute → language → (phrasings that state {x}, phrasings that change to {y} from {x}, values)
SINGLE: dict[str, dict[str, tuple[list[str], list[str], list[str]]]] = {
    "residence": {
        "en": (
            [
                "I live in {x}.",
                "I'm based in {x}.",
                "Home for me is {x}.",
                "I've been living in {x} for a few years now.",
                "My flat is in {x}.",
                "{x} is where I live these days.",
                "The user lives in {x}.",
            ],
            [
                "I moved to {y} last month.",
                "I've relocated to {y}.",
                "We finally finished the move to {y}, so that's home now.",
                "I don't live in {x} anymore, I'm in {y} now.",
                "Since the spring I've been living in {y}.",
                "The user moved to {y}.",
                "I moved out of {x} for good.",
                "We moved to {y} in the summer.",
                "I moved to {y} last spring.",
                "In March we moved house to {y}.",
            ],
            [
                "Glasgow",
                "Lisbon",
                "Toronto",
                "Melbourne",
                "Berlin",
                "Austin",
                "Dublin",
                "Oslo",
                "Cardiff",
                "Newcastle",
                "Liverpool",
                "Brighton",
                "Sheffield",
                "Nottingham",
                "Vancouver",
                "Denver",
                "Lyon",
                "Munich",
                "Krakow",
                "Nairobi",
                "Cape Town",
                "Auckland",
                "Seoul",
                "Boston",
                "Exeter",
                "Norwich",
            ],
        ),
        "zh": (
            [
                "我住在{x}。",
                "我现在定居{x}。",
                "我在{x}生活。",
                "我目前住在{x}这边。",
                "我的家安在{x}。",
                "用户住在{x}。",
            ],
            [
                "我搬到{y}了。",
                "上个月我搬家去了{y}。",
                "我已经不住{x}了，现在在{y}。",
                "我们全家迁到{y}了。",
                "用户搬去了{y}。",
                "我已经从{x}搬走了。",
                "我们夏天搬到了{y}。",
                "今年三月我搬家到了{y}。",
            ],
            [
                "成都",
                "杭州",
                "武汉",
                "西安",
                "厦门",
                "青岛",
                "重庆",
                "长沙",
                "大连",
                "合肥",
                "郑州",
                "天津",
                "广州",
                "深圳",
                "济南",
                "福州",
                "南昌",
                "贵阳",
                "哈尔滨",
                "无锡",
            ],
        ),
    },
    "employer": {
        "en": (
            [
                "I work at {x}.",
                "I'm employed by {x}.",
                "My employer is {x}.",
                "I've got a job at {x}.",
                "I'm on the payroll at {x}.",
                "The user works at {x}.",
            ],
            [
                "I left {x} and joined {y}.",
                "I started a new job at {y} this week.",
                "I'm working for {y} now.",
                "I quit {x}; {y} hired me.",
                "The user joined {y}.",
            ],
            [
                "Siemens",
                "Shopify",
                "Airbus",
                "Unilever",
                "Spotify",
                "Barclays",
                "Toyota",
                "Accenture",
                "Nestle",
                "IKEA",
                "Philips",
                "Stripe",
                "Atlassian",
                "Ocado",
                "BT",
                "Rolls-Royce",
                "the NHS",
                "a small law firm",
                "the city council",
                "a local bakery",
            ],
        ),
        "zh": (
            ["我在{x}工作。", "我是{x}的员工。", "我在{x}上班。", "我供职于{x}。"],
            ["我跳槽去{y}了。", "我从{x}离职，入职了{y}。", "我现在在{y}上班了。", "我换工作了，去了{y}。"],
            [
                "腾讯",
                "阿里巴巴",
                "字节跳动",
                "京东",
                "美团",
                "百度",
                "网易",
                "联想",
                "招商银行",
                "中国移动",
                "海尔",
                "一家律所",
                "市政府",
                "一家小面包店",
                "大疆",
                "携程",
            ],
        ),
    },
    "role": {
        "en": (
            [
                "I'm a {x}.",
                "I work as a {x}.",
                "My job title is {x}.",
                "By profession I'm a {x}.",
                "The user is a {x}.",
            ],
            [
                "I've changed careers and I'm a {y} now.",
                "I got a new role as a {y}.",
                "I'm no longer a {x}; these days I work as a {y}.",
            ],
            ["teacher", "data analyst", "product manager", "pharmacist", "architect", "paramedic", "UX designer"],
        ),
        "zh": (
            ["我是{x}。", "我的职业是{x}。", "我做{x}这一行。", "我的工作是{x}。"],
            ["我转行了，现在是{y}。", "我不做{x}了，改当{y}了。", "我换了岗位，现在是{y}。"],
            ["教师", "数据分析师", "产品经理", "药剂师", "建筑师", "会计", "设计师"],
        ),
    },
    "vehicle": {
        "en": (
            ["I drive a {x}.", "My car is a {x}.", "I get around in my {x}.", "I own a {x}.", "The user drives a {x}."],
            ["I traded in my {x} for a {y}.", "I've got a new car now, a {y}.", "I sold the {x} and bought a {y}."],
            ["Honda Civic", "VW Golf", "Toyota Yaris", "Mazda CX-5", "Volvo XC40", "Skoda Octavia"],
        ),
        "zh": (
            ["我开的车是{x}。", "我的车是一辆{x}。", "我平时开{x}。"],
            ["我把{x}卖了，换了{y}。", "我换车了，现在开{y}。", "新车到手了，是{y}。"],
            ["本田思域", "大众高尔夫", "丰田凯美瑞", "日产轩逸", "蔚来ES6", "理想L7"],
        ),
    },
    "editor": {
        "en": (
            ["I use {x} for coding.", "My editor is {x}.", "I write all my code in {x}.", "{x} is my IDE."],
            ["I've switched from {x} to {y}.", "I code in {y} now.", "I gave up {x}; I'm on {y} these days."],
            ["Emacs", "Sublime Text", "PyCharm", "Vim", "Helix", "Xcode"],
        ),
        "zh": (
            ["我用{x}写代码。", "我的编辑器是{x}。", "写程序我都用{x}。"],
            ["我从{x}换到{y}了。", "我现在改用{y}写代码了。", "{x}我不用了，现在用{y}。"],
            ["Emacs", "Sublime Text", "PyCharm", "Vim", "Helix", "Xcode"],
        ),
    },
    "phone": {
        "en": (
            ["My phone number is {x}.", "You can reach me on {x}.", "My mobile is {x}."],
            ["My number changed, it's {y} now.", "New phone number: {y}.", "I've got a new mobile number, {y}."],
            ["07911 123456", "07123 456789", "+44 20 7946 0018", "0161 496 0000", "07400 555123"],
        ),
        "zh": (
            ["我的手机号是 {x}。", "我的电话是 {x}。", "联系我请打 {x}。"],
            ["我换号了，现在是 {y}。", "新手机号：{y}。", "以后打 {y} 找我，旧号不用了。"],
            ["139 0000 1234", "135 2222 8888", "150 1234 5678", "177 6666 0000", "188 8888 1111"],
        ),
    },
    "email": {
        "en": (
            ["My email is {x}.", "Email me at {x}.", "My email address is {x}.", "The user's email is {x}."],
            ["Please use {y} from now on.", "My new email is {y}.", "I've changed my email to {y}."],
            ["ana@studio.io", "tom.b@mailbox.org", "lee@home.net", "priya@work.co", "sam@inbox.com"],
        ),
        "zh": (
            ["我的邮箱是 {x}。", "发邮件到 {x} 就行。", "我的电子邮箱是 {x}。"],
            ["以后请用 {y}。", "我的新邮箱是 {y}。", "邮箱换成 {y} 了。"],
            ["wang@qq.com", "li.na@163.com", "chen@foxmail.com", "zhao@corp.cn", "liu@mail.cn"],
        ),
    },
    # The device one carries: a change often told without a subject.
    "handset": {
        "en": (
            ["My phone is a {x}.", "I use a {x} as my phone.", "I'm on a {x}.", "My handset is a {x}."],
            [
                "Swapped my {x} for a {y}.",
                "Traded the {x} in, got a {y}.",
                "Replaced the {x} with a {y} last week.",
                "Got a {y} now, the {x} is gone.",
            ],
            ["Nokia X30", "OnePlus 12", "Moto G84", "Xperia 10", "Nothing Phone 2", "Fairphone 5"],
        ),
        "zh": (
            ["我的手机是{x}。", "我用的手机是{x}。", "我平时用{x}。"],
            ["{x}换掉了，现在用{y}。", "把{x}换成了{y}。", "{x}卖了，买了台{y}。"],
            ["荣耀Magic6", "OPPO Find X7", "vivo X100", "一加12", "红米K70", "魅族21"],
        ),
    },
    # Who someone is to the user: one partner, one manager at a time.
    "partner": {
        "en": (
            [
                "My partner is {x}.",
                "My girlfriend's name is {x}.",
                "{x} is my boyfriend.",
                "I'm in a relationship with {x}.",
                "I've been dating {x} for two years.",
            ],
            [
                "{x} and I broke up; I'm with {y} now.",
                "I split up with {x} and now I'm seeing {y}.",
                "My new partner is {y}.",
                "I'm dating {y} these days, it's over with {x}.",
            ],
            ["Bruno", "Keiko", "Mateo", "Freya", "Dmitri", "Lucia", "Nadia"],
        ),
        "zh": (
            ["我女朋友叫{x}。", "{x}是我男朋友。", "我在和{x}谈恋爱。", "我对象叫{x}。"],
            ["我和{x}分手了，现在和{y}在一起。", "我现在的女朋友叫{y}。", "跟{x}分了，新对象叫{y}。"],
            ["子涵", "浩然", "思琪", "雨桐", "俊杰", "嘉怡"],
        ),
    },
    "manager": {
        "en": (
            ["My manager is {x}.", "I report to {x}.", "{x} is my boss.", "My line manager is {x}."],
            [
                "{x} moved teams, so I report to {y} now.",
                "I have a new manager, {y}.",
                "After the reorg my boss is {y}.",
                "{x} left and {y} took over as my manager.",
            ],
            ["Sofia", "Jonas", "Elif", "Kwame", "Yusuf", "Greta"],
        ),
        "zh": (
            ["我的领导是{x}。", "我向{x}汇报。", "{x}是我的上司。"],
            ["{x}调走了，我现在向{y}汇报。", "我换了新领导，是{y}。", "重组以后我的上司成了{y}。"],
            ["周总", "陈姐", "赵主任", "孙老师", "刘工", "钱经理"],
        ),
    },
}

# The day a weekly habit falls on. Another day of the same habit is a change; another habit on the same
# day is one more, never a change. language → (phrasings that state {x} on {d}, phrasings that move it
# from {d} to {e}, habits, the days as each phrasing names them). The days vary, so no one day is learned
# as "the new one".
WEEKLY: dict[str, tuple[list[str], list[str], list[str], list[str]]] = {
    "en": (
        [
            "I have {x} practice on {d}s.",
            "{x} is every {d} for me.",
            "{d} evenings are for {x}.",
            "Every {d} I go to {x}.",
        ],
        [
            "{x} moved to {e}s.",
            "{x} is on {e}s from now on.",
            "Switched {x} from {d}s to {e}s.",
            "They changed {x} to {e} nights.",
            "{x} is on {e}s now.",
        ],
        ["choir", "football", "piano", "fencing", "chess club", "rowing"],
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    ),
    "zh": (
        [
            "我每周{d}去{x}。",
            "周{d}晚上是我的{x}时间。",
            "{x}定在每周{d}。",
            "每个星期{d}我都去{x}。",
            "礼拜{d}是我{x}的日子。",
        ],
        ["{x}改到周{e}了。", "{x}从周{d}挪到了周{e}。", "以后{x}都在周{e}。", "{x}现在是星期{e}。"],
        ["合唱团", "踢足球", "钢琴课", "击剑", "下围棋", "划船"],
        ["一", "二", "三", "四", "五", "六", "日"],
    ),
}

# One state told in one word and again as what the user does not do ("vegan" / "nothing from animals"):
# the same fact, though one side has a negation, which elsewhere often marks a change.
NEGATED_SAME: list[tuple[str, str, str]] = [
    ("en", "I'm vegan.", "I don't eat anything that comes from animals."),
    ("en", "I'm a pescatarian.", "I don't eat meat, only fish."),
    ("en", "I'm unemployed.", "I don't have a job at the moment."),
    ("en", "I'm childless.", "I don't have any kids."),
    ("en", "I'm car-free.", "I don't own a car."),
    ("en", "I'm an atheist.", "I don't believe in any god."),
    ("en", "I'm colour-blind.", "I can't tell red from green."),
    ("en", "I'm coeliac.", "I can't eat wheat or anything with gluten."),
    ("en", "I'm short-sighted.", "I can't see far without my glasses."),
    ("en", "I'm a light sleeper.", "I never sleep deeply; the smallest noise wakes me."),
    ("en", "English is the only language I speak.", "I don't speak any other language."),
    ("en", "I'm offline at weekends.", "I don't check messages on Saturdays or Sundays."),
    ("zh", "我是纯素主义者。", "任何动物制品我都不吃。"),
    ("zh", "我目前待业。", "我现在没有工作。"),
    ("zh", "我是丁克。", "我们不打算要孩子。"),
    ("zh", "我是无车族。", "我自己没有车。"),
    ("zh", "我是无神论者。", "我不信任何宗教。"),
    ("zh", "我是色盲。", "我分不清红色和绿色。"),
    ("zh", "我近视。", "不戴眼镜我看不清远处。"),
    ("zh", "我睡眠很浅。", "我睡不踏实，一点声音就醒。"),
    ("zh", "我只会说中文。", "除了中文我不会别的语言。"),
    ("zh", "周末我处于离线状态。", "周末我不看工作消息。"),
    ("zh", "我不吃猪肉。", "猪肉我是不碰的。"),
]

# The same kind of fact of another of the user's things (a laptop and a desktop, a work and a home
# email): both hold, whatever their values. (language, older, newer)
BESIDE: list[tuple[str, str, str]] = [
    ("en", "I use macOS on my laptop.", "My gaming PC runs Windows."),
    ("en", "My work email is kim@acme.example.", "My personal email is kim.h@fastmail.com."),
    ("en", "My mobile is 07911 123456.", "My office line is 020 7946 0000."),
    ("en", "I have porridge for breakfast.", "For dinner I usually cook pasta."),
    ("en", "I drink coffee in the morning.", "In the evening I only have herbal tea."),
    ("en", "I commute by train on weekdays.", "At weekends I get around by bike."),
    ("en", "At work I write Java.", "For side projects I use Rust."),
    ("en", "My home router is a Fritzbox.", "At the office we have Cisco gear."),
    ("en", "I read on a Kindle.", "For comics I use my iPad."),
    ("en", "My main bank is Monzo.", "My savings are with Nationwide."),
    ("en", "I play tennis in summer.", "In winter I go skiing."),
    ("en", "My phone is an iPhone.", "My work phone is a Pixel."),
    ("zh", "我的笔记本用的是 macOS。", "我家里的台式机装的是 Windows。"),
    ("zh", "我的工作邮箱是 kim@acme.cn。", "我的私人邮箱是 kim@qq.com。"),
    ("zh", "我的手机号是 139 0000 1234。", "我办公室座机是 010 6555 0000。"),
    ("zh", "我早饭一般喝粥。", "晚饭我常常自己做面条。"),
    ("zh", "我早上喝咖啡。", "晚上我只喝花茶。"),
    ("zh", "我工作日坐地铁上班。", "周末我骑车出门。"),
    ("zh", "上班我写 Java。", "业余项目我用 Rust。"),
    ("zh", "我看书用 Kindle。", "看漫画我用 iPad。"),
    ("zh", "我夏天打网球。", "冬天我去滑雪。"),
    ("zh", "我的私人手机是 iPhone。", "公司给我配的手机是华为。"),
]

# Facts said again the other way round: the subject made the object, a comparison turned. (lang, a, b)
TURNED: list[tuple[str, str, str]] = [
    ("en", "My son is called Ezra.", "Ezra is my son."),
    ("en", "I prefer cats to dogs.", "Given the choice I'd take a cat over a dog."),
    ("en", "I like trains more than planes.", "Planes are less my thing than trains."),
    ("en", "I work for Siemens.", "Siemens is my employer."),
    ("en", "I'm scared of heights.", "Heights frighten me."),
    ("en", "I hate mornings.", "Mornings are the worst part of my day."),
    ("en", "I cycle to work every day.", "My daily commute is by bike."),
    ("en", "Lisbon is my home town.", "I grew up in Lisbon and it's still home."),
    ("zh", "我儿子叫豆豆。", "豆豆是我儿子。"),
    ("zh", "比起狗我更喜欢猫。", "我喜欢猫多过喜欢狗。"),
    ("zh", "我在西门子工作。", "西门子是我的雇主。"),
    ("zh", "我怕高。", "高的地方让我害怕。"),
    ("zh", "我讨厌早起。", "早起对我来说最痛苦。"),
    ("zh", "我每天骑车上班。", "我上班通勤靠自行车。"),
    ("zh", "我喜欢火车胜过飞机。", "飞机没有火车那么合我心意。"),
]

# Many-valued facts: an addition is another fact, never a change.
# kind → language → (phrasings that state {x}, phrasings that add {y}, values)
MANY: dict[str, dict[str, tuple[list[str], list[str], list[str]]]] = {
    "likes": {
        "en": (
            [
                "I like {x}.",
                "I'm a big fan of {x}.",
                "{x} is something I really enjoy.",
                "I love {x}.",
                "The user likes {x}.",
            ],
            ["I also like {y}.", "I'm into {y} as well.", "{y} is another thing I enjoy."],
            ["hiking", "board games", "Korean food", "sci-fi novels", "gardening", "salsa dancing"],
        ),
        "zh": (
            ["我喜欢{x}。", "我特别爱{x}。", "{x}是我的最爱。", "我平时很喜欢{x}。"],
            ["我也喜欢{y}。", "{y}我也挺爱的。", "除此之外我还喜欢{y}。"],
            ["徒步", "桌游", "韩国菜", "科幻小说", "养花", "跳舞"],
        ),
    },
    "allergy": {
        "en": (
            ["I'm allergic to {x}.", "{x} gives me an allergic reaction.", "I can't have {x}, I'm allergic."],
            ["I'm allergic to {y} too.", "{y} is another allergy of mine.", "I also react badly to {y}."],
            ["shellfish", "latex", "sesame", "pollen", "aspirin", "eggs"],
        ),
        "zh": (
            ["我对{x}过敏。", "我一碰{x}就过敏。", "{x}会让我过敏。"],
            ["我对{y}也过敏。", "另外我还对{y}过敏。", "{y}我也不能碰，会过敏。"],
            ["海鲜", "乳胶", "芝麻", "花粉", "阿司匹林", "鸡蛋"],
        ),
    },
    "language": {
        "en": (
            ["I speak {x}.", "{x} is one of my languages.", "I'm fluent in {x}."],
            ["I'm learning {y} too.", "I also speak some {y}.", "I've started taking {y} lessons."],
            ["German", "Spanish", "Japanese", "Portuguese", "Arabic", "Russian"],
        ),
        "zh": (
            ["我会说{x}。", "{x}我说得很流利。", "我能讲{x}。"],
            ["我还在学{y}。", "我也会一点{y}。", "我最近开始学{y}了。"],
            ["德语", "西班牙语", "日语", "葡萄牙语", "阿拉伯语", "俄语"],
        ),
    },
    "hobby": {
        "en": (
            ["I play {x} every weekend.", "On weekends I play {x}.", "{x} is my weekend thing."],
            ["I've taken up {y} as well.", "I also play {y} on Wednesdays.", "I joined a {y} club too."],
            ["tennis", "chess", "basketball", "badminton", "volleyball", "squash"],
        ),
        "zh": (
            ["我每个周末打{x}。", "周末我都会去打{x}。", "{x}是我周末的固定活动。"],
            ["我最近也开始打{y}了。", "我周三还会打{y}。", "我还报了个{y}班。"],
            ["网球", "篮球", "羽毛球", "排球", "乒乓球", "壁球"],
        ),
    },
}

# When, where or how much one works is not where one works nor what as: the circumstances of a job.
CIRCUMSTANCES: dict[str, list[str]] = {
    "en": [
        "I've gone part-time, three days a week.",
        "My shifts are mostly evenings now.",
        "I don't do the early starts anymore.",
        "They put me on the late rota.",
        "I only go into the office on Tuesdays now.",
        "I'm working four-day weeks these days.",
        "I don't cover Saturdays anymore.",
        "I mostly work from home now.",
        "I got a pay rise last month.",
        "I'm on call every other week now.",
        "I don't train the new starters anymore.",
        "My hours got cut to twenty a week.",
    ],
    "zh": [
        "我现在一周只上四天班。",
        "我不值早班了。",
        "排班调了，我现在多是晚班。",
        "我已经不加班了。",
        "我现在大部分时间在家办公。",
        "周六我不用去了。",
        "我涨工资了。",
        "我现在每隔一周值一次夜。",
        "我不带新人了。",
        "我的工时减到一周二十小时了。",
    ],
}

# Where the user stands with a partner, told as a state or as what happened: an ending, an engagement, a
# wedding, a new partner. Another state, or what happened, is a change; the same state in other words is the
# same; the partner's own news or a day spent together is other. Partners' names are drawn from ``PARTNERS``.
# language → status → (phrasings of the state, phrasings of what made it so).
STATUS: dict[str, dict[str, tuple[list[str], list[str]]]] = {
    "en": {
        "together": (
            ["I'm with {x}.", "{x} and I have been together for ages.", "I live with my girlfriend {x}."],
            ["I've met someone, {x}, and we're together now.", "{x} asked me out and we're a couple now."],
        ),
        "apart": (
            ["I'm not with anyone.", "I've been on my own for a while.", "No partner for me at the moment."],
            [
                "{x} and I went our separate ways.",
                "It's over between {x} and me.",
                "{x} ended things with me in the summer.",
                "{x} and I are done, it ended last month.",
                "{x} moved out when we separated.",
                "{x} and I parted ways in the spring.",
            ],
        ),
        "engaged": (
            ["{x} is my fiancée.", "{x} and I are engaged to be married."],
            ["{x} popped the question and I said yes.", "{x} and I got engaged on holiday."],
        ),
        "married": (
            ["{x} is my wife.", "I've been married to {x} for years."],
            ["{x} and I tied the knot in June.", "I married {x} this summer."],
        ),
    },
    "zh": {
        "together": (
            ["我跟{x}在谈恋爱。", "我和{x}在一起好几年了。", "{x}是我对象。"],
            ["我跟{x}好上了，现在是一对。", "{x}向我表白了，我们在一起了。"],
        ),
        "apart": (
            ["我现在一个人。", "我没有另一半。", "我还没找对象。"],
            [
                "我跟{x}分开了。",
                "我和{x}已经散了。",
                "{x}跟我提了分手。",
                "我和{x}结束了，上个月的事。",
                "我们俩吹了。",
            ],
        ),
        "engaged": (
            ["{x}是我的未婚妻。", "我和{x}已经订了婚。"],
            ["{x}跟我求婚，我答应了。", "我和{x}在旅行时订了婚。"],
        ),
        "married": (
            ["{x}是我老婆。", "我和{x}结婚好多年了。"],
            ["我和{x}六月办了婚礼。", "我今年夏天娶了{x}。"],
        ),
    },
}
PARTNERS = {
    "en": ["Ines", "Omar", "Hana", "Felix", "Rosa", "Tariq"],
    "zh": ["思远", "梓萱", "一鸣", "佳琪", "子轩", "若曦"],
}
# Beside a partner of the user's: the partner's own news, or a day together, is no change of where they stand.
WITH_A_PARTNER = {
    "en": ["{x} got promoted at work.", "{x} and I went to Paris for our anniversary.", "{x}'s birthday is in May."],
    "zh": ["{x}升职了。", "我和{x}去杭州过了纪念日。", "{x}的生日在五月。"],
}

# What the user eats, told as a state or as what they took up or gave up: another diet is a change, the same
# one in other words the same. language → diet → (phrasings of the state, phrasings of turning to it).
DIETS: dict[str, dict[str, tuple[list[str], list[str]]]] = {
    "en": {
        "vegetarian": (
            ["I'm a vegetarian, no meat or fish.", "I've been meat-free for years."],
            ["I gave up meat in the spring.", "I went vegetarian after the new year."],
        ),
        "vegan": (
            ["I eat no animal products at all.", "I follow a fully plant-based diet."],
            ["I've cut out all animal products.", "I switched to a fully plant-based diet this year."],
        ),
        "omnivore": (
            ["I have no dietary restrictions.", "I'm a big meat eater."],
            ["I've gone back to eating everything.", "I dropped the diet and eat meat again."],
        ),
        "keto": (
            ["I'm on a keto diet.", "I eat low-carb, keto style."],
            ["I started keto in March.", "I've gone keto."],
        ),
    },
    "zh": {
        "vegetarian": (["我一直吃素，不碰荤的。", "我是吃素的人。"], ["我今年起改吃素了。", "我戒肉了，改吃素。"]),
        "vegan": (["我吃全素，蛋奶也不吃。", "我是纯素食者。"], ["我连蛋奶也戒了，改吃全素了。", "我改成纯素了。"]),
        "omnivore": (
            ["我什么都吃，不挑食。", "我没有什么忌口。"],
            ["我不吃素了，现在荤素都吃。", "我重新开始吃荤了。"],
        ),
        "keto": (["我在吃生酮饮食。", "我一直是低碳水饮食。"], ["我开始生酮了。", "我改成生酮饮食了。"]),
    },
}
# Beside a diet: another fact of food or health, one for both to keep.
BESIDE_A_DIET = {
    "en": ["I take vitamin D in winter.", "I meal-prep on Sundays.", "I drink two litres of water a day."],
    "zh": ["我冬天吃维生素D。", "我周日会提前备好一周的饭。", "我每天喝两升水。"],
}
# What a job has one do, told beside the job: it says more of the job, and changes nothing of it.
DUTIES = {
    "en": [
        "I mark a lot of homework in the evenings.",
        "Most of my day goes on meetings.",
        "I spend a lot of time writing reports.",
        "My job has me on the phone with clients all day.",
        "I travel to see customers twice a month.",
        "I look after the new starters on my team.",
    ],
    "zh": [
        "我晚上要批很多作业。",
        "我一天大部分时间在开会。",
        "我经常要写报告。",
        "我的工作要整天跟客户打电话。",
        "我每个月出两次差见客户。",
    ],
}

# A job named by its title and told by what one does in it: the same fact. (lang, title, told)
DESCRIBED: list[tuple[str, str, str]] = [
    ("en", "I'm a software developer.", "I write code for a living."),
    ("en", "I'm a dentist.", "I spend my days fixing people's teeth."),
    ("en", "I work as a translator.", "I translate documents from German into English for a living."),
    ("en", "I'm a primary school teacher.", "I teach a class of seven-year-olds."),
    ("en", "I'm a chef.", "I cook in a restaurant kitchen for a living."),
    ("en", "I'm an electrician.", "I do wiring jobs in people's homes for a living."),
    ("zh", "我是软件工程师。", "我是写程序的。"),
    ("zh", "我是牙医。", "我每天的工作就是给人看牙。"),
    ("zh", "我是翻译。", "我靠做翻译吃饭。"),
    ("zh", "我是小学老师。", "我在小学教书。"),
    ("zh", "我是厨师。", "我在饭店后厨掌勺。"),
    ("zh", "我是快递员。", "我每天骑车送快递。"),
]

# One fact said twice in words that share little: how people say a thing again in another session.
PARAPHRASED: list[tuple[str, str, str]] = [
    ("en", "I'm afraid of deep water.", "Swimming out of my depth panics me."),
    ("en", "I get seasick easily.", "Boats make me queasy."),
    ("en", "I cycle to the office.", "My commute is on two wheels."),
    ("en", "I'm an introvert.", "Big crowds drain me and I need quiet time after."),
    ("en", "I'm short-sighted.", "I can't see far without my glasses."),
    ("en", "I prefer tea to coffee.", "Given the choice I'll always pick a cuppa over an espresso."),
    ("en", "Write to me in French, please.", "I'd like your replies in French."),
    ("en", "I'm a practising Catholic.", "I go to Mass every Sunday."),
    ("en", "I have two sons.", "I'm a mum of two boys."),
    ("en", "I work nights.", "My shifts are overnight."),
    ("en", "I have a bad back.", "My lower back gives me trouble."),
    ("en", "I'm left-handed.", "I write with my left hand."),
    ("en", "I hate public speaking.", "Giving talks makes me really anxious."),
    ("en", "I grow vegetables in my allotment.", "I've got a veg plot where I grow my own food."),
    ("en", "I'm retired.", "I stopped working for good a few years back and I'm on my pension."),
    ("en", "Keep it formal when you write for me.", "Use a formal tone in what you draft for me."),
    ("en", "I take the bus everywhere, I don't drive.", "I get around by bus, no car."),
    ("en", "I'm training for a half marathon.", "I'm building up to run 21k."),
    ("zh", "我怕水。", "一到深水里我就慌。"),
    ("zh", "我晕船。", "我一坐船就难受想吐。"),
    ("zh", "我坐地铁上班。", "我每天通勤靠地铁。"),
    ("zh", "我是党员。", "我入党好几年了。"),
    ("zh", "我近视。", "我不戴眼镜看不清远处。"),
    ("zh", "我更喜欢喝茶。", "茶和咖啡让我选，我肯定选茶。"),
    ("zh", "回复我请用繁体字。", "跟我说话用繁体中文就好。"),
    ("zh", "我性格内向。", "人多的场合我会很累，需要独处。"),
    ("zh", "我有两个儿子。", "我家是两个男孩。"),
    ("zh", "我上夜班。", "我的班都在晚上，白天睡觉。"),
    ("zh", "我腰不好。", "我的腰椎老出问题。"),
    ("zh", "我是左撇子。", "我用左手写字。"),
    ("zh", "我很怕在人前讲话。", "一上台发言我就紧张。"),
    ("zh", "我退休了。", "我已经不上班了，在家领退休金。"),
    ("zh", "我在准备考研。", "我正在复习，打算考研究生。"),
    ("zh", "我在阳台种菜。", "我家阳台上种了些蔬菜自己吃。"),
]

# A trip or a visit is not a move: phrasings that name a place {y} without living there.
VISITS: dict[str, list[str]] = {
    "en": [
        "I was in {y} for a conference last week.",
        "I spent the weekend in {y}.",
        "We went to {y} on holiday in August.",
    ],
    "zh": [
        "我上周去{y}出差了。",
        "周末去{y}玩了两天。",
        "国庆我们去{y}旅游了。",
    ],
}

# Facts whose value is not a name, written out: (older, newer, label).
WRITTEN: list[tuple[str, str, str, str]] = [
    ("en", "I'm vegan.", "I eat a plant-based diet, no animal products.", SAME),
    # A change told as what happened, not as the new value.
    ("en", "I live alone.", "My boyfriend moved in with me last month.", CHANGE),
    ("en", "I live with my flatmates.", "I moved out of the shared flat and live alone now.", CHANGE),
    ("en", "I'm single.", "I've started seeing someone.", CHANGE),
    ("en", "I'm single.", "I got married over the summer.", CHANGE),
    ("en", "I have a boyfriend.", "He proposed and we're engaged!", CHANGE),
    ("en", "I swim on Mondays.", "Swimming is on Wednesdays now instead of Mondays.", CHANGE),
    ("en", "I do yoga on Friday evenings.", "I switched my yoga class to Sunday mornings.", CHANGE),
    ("en", "I don't drink coffee.", "I've started drinking coffee again.", CHANGE),
    ("en", "I can't stand coriander.", "I've got used to coriander and like it now.", CHANGE),
    ("en", "I take the bus to work.", "I bought a bike and cycle to work now.", CHANGE),
    ("en", "I walk to work.", "Since the move I drive to work.", CHANGE),
    ("en", "I use Windows.", "I've moved over to a Mac.", CHANGE),
    ("en", "I use a ThinkPad.", "I switched to a MacBook last month.", CHANGE),
    ("en", "I'm a student.", "I graduated in July and started my first job.", CHANGE),
    ("en", "I rent my flat.", "We bought a house, so no more renting.", CHANGE),
    ("zh", "我一个人住。", "我男朋友上个月搬来跟我一起住了。", CHANGE),
    ("zh", "我单身。", "我最近开始谈恋爱了。", CHANGE),
    ("zh", "我有男朋友。", "他向我求婚了，我们订婚了。", CHANGE),
    ("zh", "我周一去游泳。", "游泳改到周三了，不是周一了。", CHANGE),
    ("zh", "我不喝咖啡。", "我最近又开始喝咖啡了。", CHANGE),
    ("zh", "我不吃香菜。", "我现在能吃香菜了。", CHANGE),
    ("zh", "我坐公交上班。", "我买了电动车，现在骑车上班。", CHANGE),
    ("zh", "我还是学生。", "我毕业了，已经开始上班了。", CHANGE),
    ("zh", "我租房住。", "我们买了房，不用再租了。", CHANGE),
    ("zh", "我用 ThinkPad。", "我上个月换了 MacBook。", CHANGE),
    # The same, in words that share little.
    ("en", "I'm scared of heights.", "Heights terrify me.", SAME),
    ("en", "I have a fear of dogs.", "Dogs scare me.", SAME),
    ("en", "I cycle to work.", "I commute by bike.", SAME),
    ("en", "Give me bullet points, not long paragraphs.", "I like answers as bullet lists.", SAME),
    ("en", "I work from home.", "I'm fully remote.", SAME),
    ("en", "I'm an early riser.", "I get up at dawn every day.", SAME),
    ("en", "I'm a night owl.", "I do my best work late at night.", SAME),
    ("zh", "我怕狗。", "我看到狗就害怕。", SAME),
    ("zh", "我骑车上班。", "我每天骑自行车通勤。", SAME),
    ("zh", "我在家远程办公。", "我是全职远程工作。", SAME),
    ("zh", "我习惯早起。", "我每天天一亮就起床。", SAME),
    ("zh", "我是夜猫子。", "我晚上效率最高，经常熬夜。", SAME),
    ("zh", "请用要点列表回答我。", "回复我的时候分条列出来。", SAME),
    # A one-off is not a change of the habit.
    ("en", "I work from home.", "I went into the office today.", OTHER),
    ("en", "I usually cycle to work.", "I took the train today because of the rain.", OTHER),
    ("en", "I'm vegetarian.", "I tried a new vegan restaurant yesterday.", OTHER),
    ("zh", "我平时骑车上班。", "今天下雨我打车去的公司。", OTHER),
    ("zh", "我在家远程办公。", "今天去了一趟公司开会。", OTHER),
    ("en", "The user prefers coffee.", "The user has stopped drinking coffee.", CHANGE),
    ("en", "The user prefers coffee.", "The user likes coffee best.", SAME),
    ("en", "The user enjoys running.", "The user no longer runs.", CHANGE),
    ("en", "The user is vegetarian.", "The user eats meat again.", CHANGE),
    ("en", "The user is vegetarian.", "The user doesn't eat meat.", SAME),
    ("en", "The user drinks green tea.", "The user also drinks oolong.", OTHER),
    ("zh", "用户喜欢喝茶。", "用户不再喝茶了。", CHANGE),
    ("zh", "用户喜欢喝茶。", "用户最爱喝茶。", SAME),
    ("zh", "用户吃素。", "用户又开始吃肉了。", CHANGE),
    ("en", "I'm vegan.", "I've gone back to eating meat.", CHANGE),
    ("en", "I don't eat pork.", "Pork is off the menu for me.", SAME),
    ("en", "I follow a keto diet.", "I've dropped keto and eat normally again.", CHANGE),
    ("en", "I eat everything.", "I became vegetarian this year.", CHANGE),
    ("en", "I'm gluten-free.", "I can't eat gluten.", SAME),
    ("en", "I'm married.", "My husband and I split up; I'm divorced now.", CHANGE),
    ("en", "I'm married.", "I've been married for ten years.", SAME),
    ("en", "I have a girlfriend.", "We broke up, I'm single again.", CHANGE),
    ("en", "I'm single.", "I'm not seeing anyone.", SAME),
    ("en", "I'm engaged.", "We got married in June.", CHANGE),
    ("en", "I prefer tea to coffee.", "Tea over coffee for me, always.", SAME),
    ("en", "I prefer tea to coffee.", "These days I'd rather have coffee than tea.", CHANGE),
    ("en", "I like detailed answers.", "Please give me thorough, in-depth replies.", SAME),
    ("en", "I like detailed answers.", "From now on keep your answers short.", CHANGE),
    ("en", "I smoke.", "I quit smoking in March.", CHANGE),
    ("en", "I don't smoke.", "I'm a non-smoker.", SAME),
    ("en", "I run every morning.", "Each morning I go for a run.", SAME),
    ("en", "I run every morning.", "I've stopped running because of my knee.", CHANGE),
    ("en", "I have a cat called Miso.", "Miso is my cat.", SAME),
    ("en", "I have a cat called Miso.", "I also have a dog named Rex.", OTHER),
    ("en", "I have three kids.", "I'm a parent of three children.", SAME),
    ("en", "I have three kids.", "My oldest just started school.", OTHER),
    ("en", "I'm left-handed.", "I write with my left hand.", SAME),
    ("en", "I'm diabetic.", "I have type 1 diabetes.", SAME),
    ("en", "I'm diabetic.", "I'm allergic to dust mites.", OTHER),
    ("en", "My birthday is 3 March.", "I was born on March 3rd.", SAME),
    ("en", "My birthday is 3 March.", "My wife's birthday is 9 July.", OTHER),
    ("en", "My passport expires in 2027.", "My passport is valid until 2027.", SAME),
    ("en", "My visa runs out on 30 September.", "My visa's expiry date is 30 Sept.", SAME),
    ("en", "My exam is on 12 May.", "The exam got moved to 19 May.", CHANGE),
    ("en", "I work night shifts.", "I'm on nights at work.", SAME),
    ("en", "I work night shifts.", "I'm back on day shifts now.", CHANGE),
    ("en", "I'm a morning person.", "I'm at my best early in the day.", SAME),
    ("en", "I work from home.", "I'm fully remote.", SAME),
    ("en", "I work from home.", "I'm back in the office five days a week.", CHANGE),
    ("en", "I'm a night owl.", "I do my best work late at night.", SAME),
    ("en", "I take metformin.", "I'm on metformin for my blood sugar.", SAME),
    ("en", "I take metformin.", "I also take vitamin D.", OTHER),
    ("en", "I'm learning to drive.", "I passed my driving test last week.", CHANGE),
    ("en", "I don't have a car.", "I bought my first car yesterday, a little Fiat.", CHANGE),
    ("en", "I'm renting.", "We bought a house, so no more rent.", CHANGE),
    ("en", "I'm a student.", "I graduated and started my first job.", CHANGE),
    ("en", "I'm a student.", "I'm studying at university.", SAME),
    ("en", "I go to the gym on Mondays.", "I also swim on Fridays.", OTHER),
    ("en", "I support Arsenal.", "I'm an Arsenal fan.", SAME),
    ("en", "I support Arsenal.", "I love watching tennis too.", OTHER),
    ("en", "My daughter is called Lily.", "Lily is my daughter.", SAME),
    ("en", "My timezone is CET.", "I'm on Central European Time.", SAME),
    ("en", "My timezone is CET.", "I'm on Pacific time now after the move.", CHANGE),
    ("zh", "我是纯素食者。", "我不吃任何动物制品。", SAME),
    ("zh", "我是纯素食者。", "我又开始吃肉了。", CHANGE),
    ("zh", "我不吃猪肉。", "猪肉我是不碰的。", SAME),
    ("zh", "我在生酮饮食。", "生酮我已经放弃了，现在正常吃饭。", CHANGE),
    ("zh", "我什么都吃。", "我今年开始吃素了。", CHANGE),
    ("zh", "我已婚。", "我们离婚了。", CHANGE),
    ("zh", "我已婚。", "我结婚十年了。", SAME),
    ("zh", "我有女朋友。", "我们分手了，我又单身了。", CHANGE),
    ("zh", "我目前单身。", "我现在没有对象。", SAME),
    ("zh", "我订婚了。", "我们六月份结婚了。", CHANGE),
    ("zh", "比起咖啡我更爱喝茶。", "我喝茶多过喝咖啡。", SAME),
    ("zh", "比起咖啡我更爱喝茶。", "我现在更喜欢咖啡，不怎么喝茶了。", CHANGE),
    ("zh", "我喜欢详细的回答。", "请给我尽量详尽的解释。", SAME),
    ("zh", "我喜欢详细的回答。", "以后回答简短些就好。", CHANGE),
    ("zh", "我抽烟。", "我三月份把烟戒了。", CHANGE),
    ("zh", "我不抽烟。", "我从不吸烟。", SAME),
    ("zh", "我每天早上跑步。", "每天清晨我都会去跑步。", SAME),
    ("zh", "我每天早上跑步。", "膝盖受伤后我不跑步了。", CHANGE),
    ("zh", "我养了一只猫叫米索。", "米索是我的猫。", SAME),
    ("zh", "我养了一只猫叫米索。", "我还养了一条狗叫旺财。", OTHER),
    ("zh", "我有三个孩子。", "我是三个娃的家长。", SAME),
    ("zh", "我有三个孩子。", "老大刚上小学。", OTHER),
    ("zh", "我是左撇子。", "我用左手写字。", SAME),
    ("zh", "我有糖尿病。", "我是一型糖尿病患者。", SAME),
    ("zh", "我有糖尿病。", "我对尘螨过敏。", OTHER),
    ("zh", "我的生日是三月三号。", "我是三月三日出生的。", SAME),
    ("zh", "我的生日是三月三号。", "我老婆的生日是七月九号。", OTHER),
    ("zh", "我的考试在五月十二号。", "考试改到五月十九号了。", CHANGE),
    ("zh", "我上夜班。", "我在单位是值夜班的。", SAME),
    ("zh", "我上夜班。", "我已经调回白班了。", CHANGE),
    ("zh", "我在家办公。", "我是完全远程工作的。", SAME),
    ("zh", "我在家办公。", "我现在每周五天都去公司了。", CHANGE),
    ("zh", "我是夜猫子。", "我晚上效率最高。", SAME),
    ("zh", "我在吃二甲双胍。", "我每天服用二甲双胍控制血糖。", SAME),
    ("zh", "我在吃二甲双胍。", "我还在补充维生素D。", OTHER),
    ("zh", "我在学车。", "我上周拿到驾照了。", CHANGE),
    ("zh", "我没有车。", "我昨天买了人生第一辆车。", CHANGE),
    ("zh", "我租房住。", "我们买房了，不用再交房租。", CHANGE),
    ("zh", "我是学生。", "我毕业了，开始上班了。", CHANGE),
    ("zh", "我是学生。", "我在读大学。", SAME),
    ("zh", "我周一去健身房。", "我周五还会去游泳。", OTHER),
    ("zh", "我是湖人队的球迷。", "我支持湖人。", SAME),
    ("zh", "我是湖人队的球迷。", "我也爱看网球比赛。", OTHER),
    ("zh", "我女儿叫莉莉。", "莉莉是我女儿。", SAME),
    ("zh", "我在东八区。", "我的时区是北京时间。", SAME),
    ("zh", "我在东八区。", "搬家后我在太平洋时区了。", CHANGE),
    ("en", "I'm dating someone.", "We got engaged on Saturday!", CHANGE),
    ("en", "I'm in a relationship.", "I have a partner.", SAME),
    ("en", "I'm divorced.", "I remarried last spring.", CHANGE),
    ("en", "I'm a junior analyst at my firm.", "I was promoted to senior analyst.", CHANGE),
    ("en", "I'm a team lead.", "I lead a small team at work.", SAME),
    ("en", "I'm a team lead.", "I stepped down from leading the team; I'm an individual contributor again.", CHANGE),
    ("en", "I share a flat with two friends.", "I live with two flatmates.", SAME),
    ("en", "I share a flat with two friends.", "I've got a place of my own now, no more flatmates.", CHANGE),
    ("en", "I live alone.", "My partner moved in with me last month.", CHANGE),
    ("en", "Answer me in English, please.", "Please reply in English.", SAME),
    ("en", "Answer me in English, please.", "Switch to replying in German from now on.", CHANGE),
    ("en", "I like code examples in my answers.", "Always include a code sample when you explain.", SAME),
    ("en", "I like bullet points.", "Format answers as lists where you can.", SAME),
    ("en", "I like bullet points.", "I also want sources linked at the end.", OTHER),
    ("en", "I'm allergic to wasp stings.", "A wasp sting could send me to hospital, I'm allergic.", SAME),
    ("en", "I have asthma.", "I'm asthmatic.", SAME),
    ("en", "I have asthma.", "I also get migraines.", OTHER),
    ("en", "I have two sons.", "I'm a dad of two boys.", SAME),
    ("en", "I have two sons.", "My wife and I are expecting a third child.", OTHER),
    ("en", "I cycle to work.", "I commute by bike.", SAME),
    ("en", "I cycle to work.", "I take the train to work now since the move.", CHANGE),
    ("en", "I don't drink coffee.", "Coffee isn't something I drink.", SAME),
    ("en", "I don't drink coffee.", "I've started having a coffee every morning.", CHANGE),
    ("en", "My report is due on Friday.", "The report deadline is this Friday.", SAME),
    ("en", "My report is due on Friday.", "They pushed my report deadline to next Wednesday.", CHANGE),
    ("en", "I play the piano.", "Piano is my instrument.", SAME),
    ("en", "I play the piano.", "I've started learning the cello too.", OTHER),
    ("en", "I'm 34.", "I'm thirty-four years old.", SAME),
    ("en", "My dentist appointment is on the 4th.", "I see the dentist on the fourth.", SAME),
    ("en", "I'm Brazilian.", "I was born and raised in Brazil.", SAME),
    ("en", "I'm Brazilian.", "My husband is Canadian.", OTHER),
    ("zh", "我在谈恋爱。", "我们周六订婚了！", CHANGE),
    ("zh", "我有对象。", "我有男朋友。", SAME),
    ("zh", "我离婚了。", "去年春天我再婚了。", CHANGE),
    ("zh", "我是公司的初级分析师。", "我升成高级分析师了。", CHANGE),
    ("zh", "我是组长。", "我带着一个小团队。", SAME),
    ("zh", "我是组长。", "我不当组长了，又回去写代码了。", CHANGE),
    ("zh", "我和两个朋友合租。", "我跟两个室友住一起。", SAME),
    ("zh", "我和两个朋友合租。", "我现在自己一个人住了，不合租了。", CHANGE),
    ("zh", "我一个人住。", "上个月我对象搬来和我一起住了。", CHANGE),
    ("zh", "请用中文回答我。", "回复我的时候用中文。", SAME),
    ("zh", "请用中文回答我。", "以后改用英文回复我吧。", CHANGE),
    ("zh", "我希望回答里带代码示例。", "解释的时候请总是附上示例代码。", SAME),
    ("zh", "我喜欢用列表的格式。", "回答尽量分条列出来。", SAME),
    ("zh", "我喜欢用列表的格式。", "另外请在最后附上参考链接。", OTHER),
    ("zh", "我对蜂蜇过敏。", "被蜜蜂蜇了我会严重过敏。", SAME),
    ("zh", "我有哮喘。", "我是哮喘病人。", SAME),
    ("zh", "我有哮喘。", "我还有偏头痛。", OTHER),
    ("zh", "我有两个儿子。", "我家有俩男孩。", SAME),
    ("zh", "我有两个儿子。", "我们家快要迎来第三个孩子了。", OTHER),
    ("zh", "我骑车上班。", "我每天骑自行车通勤。", SAME),
    ("zh", "我骑车上班。", "搬家以后我改坐地铁上班了。", CHANGE),
    ("zh", "我不喝咖啡。", "咖啡我从来不喝。", SAME),
    ("zh", "我不喝咖啡。", "我现在每天早上都喝一杯咖啡。", CHANGE),
    ("zh", "我的报告周五要交。", "报告的截止时间是这周五。", SAME),
    ("zh", "我的报告周五要交。", "报告的截止日期推到下周三了。", CHANGE),
    ("zh", "我会弹钢琴。", "钢琴是我会的乐器。", SAME),
    ("zh", "我会弹钢琴。", "我最近也开始学大提琴了。", OTHER),
    ("zh", "我今年三十四岁。", "我34岁。", SAME),
    ("zh", "我是巴西人。", "我在巴西出生长大。", SAME),
    ("zh", "我是巴西人。", "我丈夫是加拿大人。", OTHER),
    ("en", "I swim on Tuesdays.", "Every Tuesday I go swimming.", SAME),
    ("en", "I do yoga every morning.", "Each day starts with yoga for me.", SAME),
    ("en", "I do yoga every morning.", "I switched from yoga to pilates.", CHANGE),
    ("en", "I meditate before bed.", "Every night before sleeping I meditate.", SAME),
    ("en", "I want concise replies.", "Short answers suit me best.", SAME),
    ("en", "I want concise replies.", "Please keep it brief when you answer me.", SAME),
    ("en", "Explain things to me step by step.", "I like answers broken into steps.", SAME),
    ("en", "I'm a pescatarian.", "I eat fish but no meat.", SAME),
    ("en", "I'm a pescatarian.", "I've cut out fish as well, fully vegetarian now.", CHANGE),
    ("en", "I eat meat.", "I've gone vegetarian since January.", CHANGE),
    ("en", "I'm not married.", "I tied the knot in August.", CHANGE),
    ("en", "I have a boyfriend.", "My boyfriend proposed and now we're engaged.", CHANGE),
    ("en", "I live with my girlfriend.", "My girlfriend and I share an apartment.", SAME),
    ("en", "I live with my girlfriend.", "We split up and I moved out on my own.", CHANGE),
    ("en", "I ride a Vespa.", "I got rid of the Vespa and bought an e-bike.", CHANGE),
    ("en", "I'm a mother of one.", "I have one child.", SAME),
    ("en", "I'm a mother of one.", "Our second baby arrived last week.", CHANGE),
    ("en", "I'm colour-blind.", "I can't tell red from green.", SAME),
    ("en", "I get up at six.", "My alarm goes off at 6 every day.", SAME),
    ("en", "I get up at six.", "I start my days at eight now.", CHANGE),
    ("zh", "我每周二游泳。", "每个礼拜二我都去游泳。", SAME),
    ("zh", "我每天早上做瑜伽。", "我每天都以瑜伽开始。", SAME),
    ("zh", "我每天早上做瑜伽。", "我不练瑜伽了，改练普拉提。", CHANGE),
    ("zh", "我睡前会冥想。", "每晚睡觉前我都冥想一会儿。", SAME),
    ("zh", "我想要简洁的回答。", "回复我的时候别太啰嗦。", SAME),
    ("zh", "请一步一步给我讲。", "我喜欢分步骤的解释。", SAME),
    ("zh", "我吃鱼但不吃肉。", "除了鱼，其他肉我都不吃。", SAME),
    ("zh", "我吃鱼但不吃肉。", "我现在连鱼也不吃了，完全吃素。", CHANGE),
    ("zh", "我吃肉。", "我从一月开始吃素了。", CHANGE),
    ("zh", "我还没结婚。", "我八月份领证了。", CHANGE),
    ("zh", "我有男朋友。", "男朋友求婚了，我们订婚了。", CHANGE),
    ("zh", "我和女朋友住在一起。", "我跟女朋友合住一套房子。", SAME),
    ("zh", "我和女朋友住在一起。", "我们分手了，我搬出来一个人住。", CHANGE),
    ("zh", "我骑的是小牛电动车。", "小牛卖掉了，换了辆雅迪。", CHANGE),
    ("zh", "我开五菱宏光。", "宏光卖了，现在开的是长安逸动。", CHANGE),
    ("zh", "我有一个孩子。", "我家就一个娃。", SAME),
    ("zh", "我有一个孩子。", "我家二宝上周出生了。", CHANGE),
    ("zh", "我是色盲。", "我分不清红色和绿色。", SAME),
    ("zh", "我六点起床。", "我每天早上六点起。", SAME),
    ("zh", "我六点起床。", "我现在八点才起床。", CHANGE),
]


# What people put around a statement in conversation; a statement said with it means the same.
ASIDES = {
    "en": ["By the way, {s}", "Just so you know, {s}", "Quick update: {s}", "FYI, {s}", "Oh, and {s}"],
    "zh": ["顺便说一下，{s}", "提醒一下，{s}", "跟你说一声，{s}", "对了，{s}", "更新一下：{s}"],
}


def _aside(lang: str, statement: str, rng: random.Random) -> str:
    """The statement, one time in three said with an aside around it."""
    if rng.random() >= 1 / 3:
        return statement
    if lang == "en" and not statement.startswith("I"):
        statement = statement[0].lower() + statement[1:]
    return rng.choice(ASIDES[lang]).format(s=statement)


# The decisions, lessons and experiences of work, each on its own topic: any two can stand together.
WORK: dict[str, list[str]] = {
    "en": [
        "We decided to use Kafka for the event stream.",
        "Lesson learned: always pin dependency versions in CI.",
        "We finished migrating the billing service to Go.",
        "The team agreed to release every second Tuesday.",
        "Our staging database is a copy of production from last night.",
        "I found that batching the writes made the import ten times faster.",
        "We chose Terraform for the infrastructure.",
        "The outage happened because a certificate expired.",
        "Code reviews need two approvals before merging.",
        "We moved the docs to MkDocs.",
        "The API must stay backwards compatible until version 3.",
        "I implemented the retry queue with exponential backoff.",
        "We use feature flags for every risky change.",
        "Never run migrations by hand on the primary.",
        "The mobile app targets iOS 17 and later.",
        "Our logs go to Loki with a 30-day retention.",
    ],
    "zh": [
        "我们决定用 Kafka 做事件流。",
        "教训：CI 里一定要锁定依赖版本。",
        "我们把计费服务迁到了 Go。",
        "团队约定每隔一周的周二发版。",
        "预发环境的数据库是昨晚生产库的副本。",
        "我发现批量写入能让导入快十倍。",
        "基础设施我们选了 Terraform。",
        "那次故障是证书过期导致的。",
        "代码合并前需要两个人审批。",
        "文档迁到了 MkDocs。",
        "在第三版之前 API 必须保持向后兼容。",
        "我用指数退避实现了重试队列。",
        "有风险的改动一律走功能开关。",
        "永远不要在主库上手动跑迁移。",
        "移动端只支持 iOS 17 及以上。",
        "日志进 Loki，保留 30 天。",
    ],
}
# Work facts said again, or reversed.
WORK_WRITTEN: list[tuple[str, str, str, str]] = [
    ("en", "We decided to use Kafka for the event stream.", "The event stream runs on Kafka, as agreed.", SAME),
    (
        "en",
        "We decided to use Kafka for the event stream.",
        "We dropped Kafka; the event stream moves to NATS.",
        CHANGE,
    ),
    ("en", "We chose Terraform for the infrastructure.", "Infrastructure is managed with Terraform.", SAME),
    ("en", "We chose Terraform for the infrastructure.", "We're replacing Terraform with Pulumi.", CHANGE),
    ("en", "Code reviews need two approvals before merging.", "Every merge needs a second approver.", SAME),
    ("en", "Code reviews need two approvals before merging.", "One approval is enough to merge now.", CHANGE),
    ("en", "Our logs go to Loki with a 30-day retention.", "We keep logs in Loki for 30 days.", SAME),
    ("en", "Our logs go to Loki with a 30-day retention.", "Log retention was cut to 7 days.", CHANGE),
    ("zh", "我们决定用 Kafka 做事件流。", "事件流按约定跑在 Kafka 上。", SAME),
    ("zh", "我们决定用 Kafka 做事件流。", "我们放弃了 Kafka，事件流改用 NATS。", CHANGE),
    ("zh", "基础设施我们选了 Terraform。", "基础设施用 Terraform 管理。", SAME),
    ("zh", "基础设施我们选了 Terraform。", "我们要把 Terraform 换成 Pulumi。", CHANGE),
    ("zh", "代码合并前需要两个人审批。", "每次合并都要第二个人批准。", SAME),
    ("zh", "代码合并前需要两个人审批。", "现在一个人审批就能合并了。", CHANGE),
    ("zh", "日志进 Loki，保留 30 天。", "我们的日志在 Loki 里存 30 天。", SAME),
    ("zh", "日志进 Loki，保留 30 天。", "日志保留期缩短到 7 天了。", CHANGE),
]


def _pairs(rng: random.Random) -> list[dict[str, str]]:
    """Every pair, tagged with its set: ``core`` first, then ``broad``."""
    out: list[dict[str, str]] = []

    def add(lang: str, old: str, new: str, label: str) -> None:
        out.append({"lang": lang, "old": old, "new": _aside(lang, new, rng), "label": label})

    for attribute, langs in SINGLE.items():
        for lang, (states, changes, values) in langs.items():
            for a, b in itertools.permutations(range(len(states)), 2):
                x, y = rng.sample(values, 2)
                add(lang, states[a].format(x=x), states[b].format(x=x), SAME)
                add(lang, states[a].format(x=x), states[b].format(x=y), CHANGE)
            for a, phrasing in itertools.product(range(len(states)), changes):
                x, y = rng.sample(values, 2)
                add(lang, states[a].format(x=x), phrasing.format(x=x, y=y), CHANGE)
            others = [o for o in SINGLE if o != attribute]
            for a in range(len(states)):  # another attribute entirely
                kind = rng.choice(others)
                their_states, _, their_values = SINGLE[kind][lang]
                x = rng.choice(values)
                add(lang, states[a].format(x=x), rng.choice(their_states).format(x=rng.choice(their_values)), OTHER)
    for lang, trips in VISITS.items():  # a trip somewhere, against where the user lives
        states, _, values = SINGLE["residence"][lang]
        for a, trip in itertools.product(range(len(states)), trips):
            x, y = rng.sample(values, 2)
            add(lang, states[a].format(x=x), trip.format(y=rng.choice((x, y))), OTHER)
    for langs in MANY.values():
        for lang, (states, additions, values) in langs.items():
            for a, b in itertools.permutations(range(len(states)), 2):
                x, y = rng.sample(values, 2)
                add(lang, states[a].format(x=x), states[b].format(x=x), SAME)
                add(lang, states[a].format(x=x), states[b].format(x=y), OTHER)
            for a, phrasing in itertools.product(range(len(states)), additions):
                x, y = rng.sample(values, 2)
                add(lang, states[a].format(x=x), phrasing.format(y=y), OTHER)
    for lang, old, new, label in WRITTEN + WORK_WRITTEN:
        add(lang, old, new, label)
    for lang, (states, moves, habits, days) in WEEKLY.items():
        for a, b in itertools.permutations(range(len(states)), 2):
            x, y = rng.sample(habits, 2)
            d = rng.choice(days)
            add(lang, states[a].format(x=x, d=d), states[b].format(x=x, d=d), SAME)
            add(lang, states[a].format(x=x, d=d), states[b].format(x=y, d=d), OTHER)
        for a, move in itertools.product(range(len(states)), moves):
            x = rng.choice(habits)
            d, e = rng.sample(days, 2)
            add(lang, states[a].format(x=x, d=d), move.format(x=x, d=d, e=e), CHANGE)
    for pairs, label in ((BESIDE, OTHER), (TURNED, SAME), (NEGATED_SAME, SAME)):  # either may be said first
        for lang, a, b in pairs:
            add(lang, a, b, label)
            add(lang, b, a, label)
    for lang, said in WORK.items():
        for a, b in itertools.combinations(said, 2):
            add(lang, a, b, OTHER)
        for a in said:  # a work fact and a fact of the person's own
            kind = rng.choice(list(SINGLE))
            states, _, values = SINGLE[kind][lang]
            add(lang, a, rng.choice(states).format(x=rng.choice(values)), OTHER)
    _beside_a_job(add, rng, CIRCUMSTANCES)  # a job's circumstances
    core = len(out)
    for lang, a, b in DESCRIBED + PARAPHRASED:
        add(lang, a, b, SAME)
        add(lang, b, a, SAME)
    _told_states(add, rng, STATUS, WITH_A_PARTNER, names=PARTNERS, alone="apart")
    _told_states(add, rng, DIETS, BESIDE_A_DIET)
    _beside_a_job(add, rng, DUTIES)  # what a job has one do
    return [{**row, "set": CORE if i < core else BROAD} for i, row in enumerate(out)]


def _beside_a_job(add: Any, rng: random.Random, said: dict[str, list[str]]) -> None:
    """Each of ``said`` beside where one works and beside what as (other): more of the job, not another."""
    for lang, statements in said.items():
        for kind in ("employer", "role"):
            states, _, values = SINGLE[kind][lang]
            for statement in statements:
                add(lang, rng.choice(states).format(x=rng.choice(values)), statement, OTHER)


def _told_states(
    add: Any,
    rng: random.Random,
    told: dict[str, dict[str, tuple[list[str], list[str]]]],
    beside: dict[str, list[str]],
    names: dict[str, list[str]] | None = None,
    alone: str | None = None,
) -> None:
    """Each state beside the same state in other words (same), beside one state of another kind and two
    things that made another so (change), and beside facts that stand with it (other), unless it is the
    ``alone`` state (no partner's news beside being on one's own). ``{x}``: a name drawn from ``names``."""
    for lang, kinds in told.items():
        said = [(kind, phrasing) for kind, (states, _) in kinds.items() for phrasing in states]
        for kind, a in said:
            x = rng.choice(names[lang]) if names else ""
            for other, b in said:
                if other == kind and b != a:
                    add(lang, a.format(x=x), b.format(x=x), SAME)
            add(lang, a.format(x=x), rng.choice([b for o, b in said if o != kind]).format(x=x), CHANGE)
            events = [e for o, (_, happened) in kinds.items() if o != kind for e in happened]
            for event in rng.sample(events, 2):
                add(lang, a.format(x=x), event.format(x=x), CHANGE)
            if kind != alone:
                for fact in beside[lang]:
                    add(lang, a.format(x=x), fact.format(x=x), OTHER)


def main() -> None:
    target = Path(str(resources.files("memgw.consolidator").joinpath("pairs.jsonl")))
    rows = _pairs(random.Random(7))
    target.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    counts = {(r["lang"], r["label"]) for r in rows}
    print(f"wrote {len(rows)} pairs to {target}: " + ", ".join(f"{a} {b}" for a, b in sorted(counts)))


if __name__ == "__main__":
    main()
